import { Check, Pencil, X } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { ApiError } from '~/utils/api-client'
import { Button } from './ui/button'
import { Field, issueFor } from './ui/field'
import { Input, Textarea } from './ui/input'

/** A failed call as an error toast with the server message (spec 02 section 8). */
export function toastError(error: unknown) {
  toast.error((error instanceof Error && error.message) || 'An unrecognized error has occurred')
}

/** The message to show under `field` when the server named it (or gave a general error); otherwise a toast. */
export function fieldErrorOf(error: unknown, field: string): string | null {
  const message = error instanceof ApiError ? (issueFor(error.issues, field) ?? issueFor(error.issues, '')) : undefined
  if (message) return message
  toastError(error)
  return null
}

/**
 * A value with an edit pencil (only when `canEdit`): Save sends it through `onSave`; the server's
 * per-field error appears under the field, anything else as a toast.
 */
export function InlineEditField({
  label,
  field,
  value,
  canEdit,
  onSave,
  multiline,
  rows = 3,
  emptyText = 'Not set',
}: {
  label: string
  /** the server issue path this field answers to (name, description) */
  field: string
  value: string
  canEdit: boolean
  onSave: (value: string) => Promise<void>
  multiline?: boolean
  rows?: number
  emptyText?: string
}) {
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState(value)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const start = () => {
    setDraft(value)
    setError(null)
    setEditing(true)
  }
  const save = async () => {
    setBusy(true)
    try {
      await onSave(draft)
      setEditing(false)
      setError(null)
    } catch (e) {
      setError(fieldErrorOf(e, field))
    } finally {
      setBusy(false)
    }
  }

  if (!editing) {
    return (
      <div className="group flex flex-col gap-1">
        <span className="text-xs font-medium text-foreground/80">{label}</span>
        <div className="flex items-start gap-2">
          <p className={value ? 'whitespace-pre-line text-sm' : 'text-sm text-muted-foreground'} data-testid={`${field}-value`}>
            {value || emptyText}
          </p>
          {canEdit ? (
            <Button type="button" variant="ghost" size="icon" className="-my-1.5 size-7 text-muted-foreground" aria-label={`Edit ${label}`} onClick={start}>
              <Pencil />
            </Button>
          ) : null}
        </div>
      </div>
    )
  }

  return (
    <form
      className="flex flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault()
        void save()
      }}
    >
      <Field label={label} error={error}>
        {(props) =>
          multiline ? (
            <Textarea {...props} rows={rows} value={draft} autoFocus onChange={(e) => setDraft(e.target.value)} onKeyDown={(e) => e.key === 'Escape' && setEditing(false)} />
          ) : (
            <Input {...props} value={draft} autoFocus onChange={(e) => setDraft(e.target.value)} onKeyDown={(e) => e.key === 'Escape' && setEditing(false)} />
          )
        }
      </Field>
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={busy}>
          <Check /> Save
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={() => setEditing(false)} disabled={busy}>
          <X /> Cancel
        </Button>
      </div>
    </form>
  )
}
