import { MemberTags } from '~/components/member-tags'
import { Badge } from '~/components/ui/badge'
import type { listProjectMembers } from '~/domain/projects/projects.server'
import { ProjectRoleSelect } from './project-role-select'

type Membership = Awaited<ReturnType<typeof listProjectMembers>>

/**
 * A project's Membership: organization members with inherited roles (read-only) and editable
 * project roles. Shown on the project's Settings tab and in the projects list's project dialog.
 */
export function ProjectMembersTable({
  organizationId,
  projectId,
  members,
  roles,
  canAssign,
  currentUserId,
  onChanged,
}: {
  organizationId: string
  projectId: string
  members: Membership['members']
  roles: Membership['roles']
  canAssign: boolean
  currentUserId: string
  onChanged?: () => void
}) {
  const project = { id: projectId }
  return (
    <>
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
                    onChanged={onChanged}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  )
}
