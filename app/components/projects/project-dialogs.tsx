import { useRevalidator } from '@remix-run/react'
import { useState } from 'react'
import { toast } from 'sonner'
import { fieldErrorOf, toastError } from '~/components/inline-edit-field'
import { Button } from '~/components/ui/button'
import { ConfirmDialog, Dialog } from '~/components/ui/dialog'
import { Field } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { callApi } from '~/utils/api-client'

/** The 'Project Name' dialog: a new top-level project, or a sub-project of `parent`. */
export function NewProjectDialog({
  organizationId,
  parent,
  open,
  onOpenChange,
}: {
  organizationId: string
  parent: { id: string; name: string } | null
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const revalidator = useRevalidator()
  const [name, setName] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const close = (value: boolean) => {
    if (!value) {
      setName('')
      setError(null)
    }
    onOpenChange(value)
  }
  const create = async () => {
    setBusy(true)
    try {
      await callApi('project/create', { organizationId, project: { name, parentId: parent?.id ?? null } })
      toast.success('Project created')
      close(false)
      revalidator.revalidate()
    } catch (e) {
      setError(fieldErrorOf(e, 'name'))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Project Name"
      description={parent ? `New sub-project of '${parent.name}'` : 'New project'}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault()
          void create()
        }}
      >
        <Field label="Name" error={error}>
          {(props) => <Input {...props} value={name} onChange={(e) => setName(e.target.value)} autoFocus placeholder="e.g. Main Stage" />}
        </Field>
        <div className="mt-4 flex justify-end gap-2">
          <Button type="button" variant="outline" onClick={() => close(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            Create
          </Button>
        </div>
      </form>
    </Dialog>
  )
}

/** Deletes a project with its sub-projects (recurse) after the spec's confirmation; systems become unassigned. */
export function DeleteProjectDialog({
  organizationId,
  project,
  onOpenChange,
}: {
  organizationId: string
  project: { id: string; name: string } | null
  onOpenChange: (open: boolean) => void
}) {
  const revalidator = useRevalidator()
  const [busy, setBusy] = useState(false)
  const remove = async () => {
    if (!project) return
    setBusy(true)
    try {
      await callApi('project/delete', { organizationId, projectId: project.id, recurse: true })
      toast.success(`Project '${project.name}' deleted`)
      onOpenChange(false)
      revalidator.revalidate()
    } catch (e) {
      toastError(e)
    } finally {
      setBusy(false)
    }
  }
  return (
    <ConfirmDialog
      open={project !== null}
      onOpenChange={onOpenChange}
      title="Delete Project"
      text={`Are you sure you want to delete project '${project?.name ?? ''}'?\n\nAll of its sub-projects are deleted as well, and systems assigned to them become unassigned.`}
      confirmLabel="Delete"
      destructive
      busy={busy}
      onConfirm={() => void remove()}
    />
  )
}
