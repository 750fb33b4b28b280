import { type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData, useNavigate, useRevalidator } from '@remix-run/react'
import { useState } from 'react'
import { toast } from 'sonner'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { InlineEditField, toastError } from '~/components/inline-edit-field'
import { ProjectMembersTable } from '~/components/projects/project-members-table'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { ConfirmDialog } from '~/components/ui/dialog'
import { listProjectMembers } from '~/domain/projects/projects.server'
import { OfflineAlarmCard, WindowsCard } from '~/components/alarms/alarm-settings'
import { getOfflineDelay } from '~/domain/alarms/offline.server'
import { listWindows } from '~/domain/alarms/windows.server'
import { useProject } from '~/routes/_app.organization.$organizationId.projects.$projectId'
import { callApi } from '~/utils/api-client'
import { domainCall } from '~/utils/errors.server'
import { requireOrgPermission } from '~/utils/org-route.server'

/** Project Settings tab (project.update): name, description, membership, Danger Zone. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor, user } = await requireOrgPermission(request, params.organizationId, 'project.update', params.projectId)
  const membership = await domainCall(() => listProjectMembers(actor, params.organizationId!, params.projectId!))
  const [windows, offline] = await Promise.all([
    domainCall(() => listWindows(actor, params.organizationId!, params.projectId!)),
    domainCall(() => getOfflineDelay(actor, params.organizationId!, params.projectId!)),
  ])
  return { ...membership, windows, offlineMinutes: offline.minutes, currentUserId: user.id, organizationId: params.organizationId! }
}

const SUCCESS = { name: 'Project name updated', description: 'Project updated' } as const

export default function ProjectSettings() {
  const { members, roles, canAssign, currentUserId, organizationId, windows, offlineMinutes } = useLoaderData<typeof loader>()
  const project = useProject()
  const revalidator = useRevalidator()
  const navigate = useNavigate()
  const [confirmDelete, setConfirmDelete] = useState(false)
  const [busy, setBusy] = useState(false)

  const save = (field: keyof typeof SUCCESS) => async (value: string) => {
    await callApi('project/update', { organizationId, projectId: project.id, doc: { [field]: value } })
    toast.success(SUCCESS[field])
    revalidator.revalidate()
  }
  const remove = async () => {
    setBusy(true)
    try {
      await callApi('project/delete', { organizationId, projectId: project.id, recurse: true })
      toast.success(`Project '${project.name}' deleted`)
      navigate('/')
    } catch (e) {
      toastError(e)
      setBusy(false)
    }
  }

  return (
    <div className="flex max-w-4xl flex-col gap-5">
      <Card>
        <CardHeader>
          <CardTitle>General</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-5">
          <InlineEditField label="Name" field="name" value={project.name} canEdit={project.capabilities.canUpdate} onSave={save('name')} />
          <InlineEditField
            label="Description"
            field="description"
            value={project.description}
            canEdit={project.capabilities.canUpdate}
            onSave={save('description')}
            multiline
            rows={3}
            emptyText="No description"
          />
        </CardContent>
      </Card>

      <OfflineAlarmCard key={`${project.id}-${offlineMinutes}`} organizationId={organizationId} projectId={project.id} minutes={offlineMinutes} canEdit={project.capabilities.canUpdate} />
      <WindowsCard organizationId={organizationId} projectId={project.id} windows={windows.windows} canManage={windows.canManage} />

      <Card id="membership">
        <CardHeader>
          <CardTitle>Membership</CardTitle>
          <CardDescription>Roles inherited from the organization or a parent project are read-only here; project roles apply to this project and its sub-projects.</CardDescription>
        </CardHeader>
        <CardContent className="relative overflow-x-auto p-0">
          <ProjectMembersTable organizationId={organizationId} projectId={project.id} members={members} roles={roles} canAssign={canAssign} currentUserId={currentUserId} />
        </CardContent>
      </Card>

      {project.capabilities.canDelete ? (
        <Card className="border-red-200">
          <CardHeader className="border-red-200 bg-red-50/60">
            <CardTitle className="text-red-800">Danger Zone</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-wrap items-center justify-between gap-4">
            <div>
              <p className="text-sm font-semibold">Delete Project</p>
              <p className="text-sm text-muted-foreground">Deletes this project and its sub-projects. Systems assigned to them become unassigned.</p>
            </div>
            <Button variant="destructive" onClick={() => setConfirmDelete(true)}>
              Delete Project
            </Button>
          </CardContent>
        </Card>
      ) : null}

      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title="Delete Project"
        text="Are you sure you want to DELETE this project and ALL RELATED DATA? This action CAN NOT BE UNDONE."
        confirmLabel="DELETE PROJECT"
        destructive
        busy={busy}
        onConfirm={() => void remove()}
      />
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
