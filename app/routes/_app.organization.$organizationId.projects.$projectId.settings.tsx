import { type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData, useNavigate, useRevalidator } from '@remix-run/react'
import { useState } from 'react'
import { toast } from 'sonner'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { InlineEditField, toastError } from '~/components/inline-edit-field'
import { MemberTags } from '~/components/member-tags'
import { ProjectRoleSelect } from '~/components/projects/project-role-select'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { ConfirmDialog } from '~/components/ui/dialog'
import { listProjectMembers } from '~/domain/projects/projects.server'
import { useProject } from '~/routes/_app.organization.$organizationId.projects.$projectId'
import { callApi } from '~/utils/api-client'
import { domainCall } from '~/utils/errors.server'
import { requireOrgPermission } from '~/utils/org-route.server'

/** Project Settings tab (project.update): name, description, membership, Danger Zone. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor, user } = await requireOrgPermission(request, params.organizationId, 'project.update', params.projectId)
  const membership = await domainCall(() => listProjectMembers(actor, params.organizationId!, params.projectId!))
  return { ...membership, currentUserId: user.id, organizationId: params.organizationId! }
}

const SUCCESS = { name: 'Project name updated', description: 'Project updated' } as const

export default function ProjectSettings() {
  const { members, roles, canAssign, currentUserId, organizationId } = useLoaderData<typeof loader>()
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

      <Card id="membership">
        <CardHeader>
          <CardTitle>Membership</CardTitle>
          <CardDescription>Roles inherited from the organization or a parent project are read-only here; project roles apply to this project and its sub-projects.</CardDescription>
        </CardHeader>
        <CardContent className="p-0">
          {members.length === 0 ? (
            <p className="px-4 py-6 text-center text-sm text-muted-foreground">No project members.</p>
          ) : (
            <table className="w-full text-[13px]">
              <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
                <tr>
                  <th className="px-4 py-2 font-medium">Member</th>
                  <th className="px-4 py-2 font-medium">Inherited roles</th>
                  <th className="px-4 py-2 font-medium">Project roles</th>
                </tr>
              </thead>
              <tbody>
                {members.map((m) => (
                  <tr key={m.id} className="border-b align-top last:border-0" data-testid="project-member">
                    <td className="px-4 py-2">
                      <div className="flex items-center gap-1.5 font-medium">
                        {m.name}
                        <MemberTags isOwner={m.isOwner} isYou={m.id === currentUserId} />
                      </div>
                      <div className="text-xs text-muted-foreground">{m.email}</div>
                    </td>
                    <td className="px-4 py-2">
                      <div className="flex flex-wrap gap-1">
                        {m.inheritedRoles.length === 0 ? <span className="text-muted-foreground">—</span> : null}
                        {m.inheritedRoles.map((r) => (
                          <Badge key={`${r.roleId}-${r.scope}`} variant="secondary" title={`Inherited from ${r.scope}`}>
                            {r.roleName} <span className="font-normal text-muted-foreground">· {r.scope}</span>
                          </Badge>
                        ))}
                      </div>
                    </td>
                    <td className="px-4 py-2">
                      <ProjectRoleSelect
                        organizationId={organizationId}
                        projectId={project.id}
                        member={m}
                        selected={m.projectRoles.map((r) => r.roleId)}
                        roles={roles}
                        canAssign={canAssign}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
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
