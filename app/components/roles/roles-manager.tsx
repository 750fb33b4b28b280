import { ChevronDown, ChevronRight, Lock, Pencil, Plus, RefreshCcw, ShieldCheck, Trash2 } from 'lucide-react'
import { Fragment, useState } from 'react'
import { toast } from 'sonner'
import { Alert } from '~/components/ui/alert'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Card, CardHeader, CardTitle } from '~/components/ui/card'
import { ConfirmDialog, Dialog } from '~/components/ui/dialog'
import { Field, issueFor } from '~/components/ui/field'
import { Input, Textarea } from '~/components/ui/input'
import { NativeSelect } from '~/components/ui/native-select'
import { PERMISSION_GROUPS, permissionsForScope, Scope, scopeName, type PermissionGroup } from '~/domain/access/catalogue'
import { type ApiError } from '~/utils/api-client'
import { useApiMutation } from '~/utils/use-api-mutation'

export type RoleRow = {
  id: string
  name: string
  description: string
  organizationId: string
  resourceType: number
  permissions: string[]
  assignableBy: string[]
  isDefault: boolean
  inUse: boolean
  editable: boolean
  deletable: boolean
}
export type RolesData = {
  roles: RoleRow[]
  organizationId: string
  canCreate: boolean
  isAdmin: boolean
  scopes: number[]
  assignableByCandidates: { id: string; name: string; resourceType: number; organizationId: string }[]
}

const groupNames = Object.keys(PERMISSION_GROUPS) as PermissionGroup[]
const legendClass = 'mb-1 text-xs font-medium text-foreground/80'

/** Permissions of a role grouped by resource type, in catalogue order. */
function groupPermissions(permissions: string[]) {
  const held = new Set(permissions)
  return groupNames
    .map((group) => ({ group, permissions: (PERMISSION_GROUPS[group].permissions as readonly string[]).filter((p) => held.has(p)) }))
    .filter((g) => g.permissions.length > 0)
}

/**
 * Roles table with expandable permission lists, the create/edit dialog and delete; site and cloud
 * admins also get 'Check user roles' and 'Recompile ACLs'. Used by the organization's Member Roles
 * tab and the admin Roles page (global roles).
 */
export function RolesManager({ data }: { data: RolesData }) {
  const { run, isPending } = useApiMutation()
  const [expanded, setExpanded] = useState<Set<string>>(new Set())
  const [editing, setEditing] = useState<RoleRow | 'new' | null>(null)
  const [deleting, setDeleting] = useState<RoleRow | null>(null)
  const [adminAction, setAdminAction] = useState<'check' | 'recompile' | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const roleName = new Map(data.roles.map((r) => [r.id, r.name]))

  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })

  const runAdminAction = async () => {
    const result = await run<{ repairs?: string[]; usersCompiled: number }>(adminAction === 'check' ? 'auth/userRolesCheck' : 'auth/recompileAcls', {}, { key: 'admin' })
    setAdminAction(null)
    if (result) {
      const repairs = result.repairs ? `${result.repairs.length} repair(s), ` : ''
      toast.success('Check OK', { description: `${repairs}${result.usersCompiled} user(s) recompiled` })
    }
  }

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle>{data.organizationId ? 'Member Roles' : 'Global Roles'}</CardTitle>
        <div className="flex flex-wrap items-center gap-2">
          {data.isAdmin ? (
            <>
              <Button variant="outline" size="sm" onClick={() => setAdminAction('check')}>
                <ShieldCheck /> Check user roles
              </Button>
              <Button variant="outline" size="sm" onClick={() => setAdminAction('recompile')}>
                <RefreshCcw /> Recompile ACLs
              </Button>
            </>
          ) : null}
          {data.canCreate ? (
            <Button size="sm" onClick={() => setEditing('new')}>
              <Plus /> New Role
            </Button>
          ) : null}
        </div>
      </CardHeader>
      <div className="relative overflow-x-auto">
      <table className="w-full text-sm" aria-label="Roles">
        <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
          <tr>
            <th className="w-8 px-3 py-2" />
            <th className="px-3 py-2 font-medium">Name</th>
            <th className="px-3 py-2 font-medium">Scope</th>
            <th className="px-3 py-2 font-medium">Permissions</th>
            <th className="px-3 py-2 font-medium">Assignable by</th>
            <th className="px-3 py-2" />
          </tr>
        </thead>
        <tbody>
          {data.roles.map((role) => (
            <Fragment key={role.id}>
              <tr className="border-b last:border-0 hover:bg-muted/30">
                <td className="px-3 py-2">
                  <button
                    type="button"
                    className="rounded p-0.5 text-muted-foreground hover:bg-accent"
                    aria-label={`${expanded.has(role.id) ? 'Hide' : 'Show'} permissions of ${role.name}`}
                    aria-expanded={expanded.has(role.id)}
                    onClick={() => toggle(role.id)}
                  >
                    {expanded.has(role.id) ? <ChevronDown className="size-4" /> : <ChevronRight className="size-4" />}
                  </button>
                </td>
                <td className="px-3 py-2">
                  <div className="flex items-center gap-1.5 font-medium">
                    {role.name}
                    {role.organizationId === '' ? <Badge variant="secondary">Global</Badge> : null}
                    {role.inUse ? <Badge variant="outline">In use</Badge> : null}
                  </div>
                  {role.description ? <p className="text-xs text-muted-foreground">{role.description}</p> : null}
                </td>
                <td className="px-3 py-2 text-muted-foreground">{scopeName(role.resourceType)}</td>
                <td className="px-3 py-2 tabular-nums text-muted-foreground">{role.permissions.length}</td>
                <td className="px-3 py-2 text-xs text-muted-foreground">{role.assignableBy.map((id) => roleName.get(id) ?? id).join(', ') || '—'}</td>
                <td className="whitespace-nowrap px-3 py-1 text-right">
                  {role.editable ? (
                    <Button variant="ghost" size="sm" aria-label={`Edit ${role.name}`} onClick={() => setEditing(role)}>
                      <Pencil /> Edit
                    </Button>
                  ) : null}
                  {role.deletable ? (
                    <Button variant="ghost" size="sm" className="text-destructive" aria-label={`Delete ${role.name}`} onClick={() => setDeleting(role)}>
                      <Trash2 />
                    </Button>
                  ) : null}
                </td>
              </tr>
              {expanded.has(role.id) ? (
                <tr className="border-b bg-muted/20">
                  <td />
                  <td colSpan={5} className="px-3 py-2">
                    {role.permissions.length === 0 ? (
                      <p className="text-xs text-muted-foreground">No permissions.</p>
                    ) : (
                      <dl className="grid grid-cols-[7rem_1fr] gap-x-3 gap-y-1.5 text-xs">
                        {groupPermissions(role.permissions).map((g) => (
                          <Fragment key={g.group}>
                            <dt className="pt-0.5 font-medium text-muted-foreground">{g.group}</dt>
                            <dd className="flex flex-wrap gap-1">
                              {g.permissions.map((p) => (
                                <Badge key={p} variant="outline" className="font-mono font-normal">
                                  {p}
                                </Badge>
                              ))}
                            </dd>
                          </Fragment>
                        ))}
                      </dl>
                    )}
                  </td>
                </tr>
              ) : null}
            </Fragment>
          ))}
        </tbody>
      </table>
      </div>

      {editing ? <RoleDialog key={editing === 'new' ? 'new' : editing.id} data={data} role={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Warning"
        text={deleting ? `Do you want to delete user role '${deleting.name}'?` : ''}
        busy={isPending('delete')}
        destructive
        onConfirm={async () => {
          if (!deleting) return
          await run('auth/userRoleDelete', { id: deleting.id, organizationId: deleting.organizationId }, {
            key: 'delete',
            success: 'Role deleted',
            onError: (error) => {
              setFailure(error.message)
              return true
            },
          })
          setDeleting(null)
        }}
      />
      <ConfirmDialog
        open={adminAction !== null}
        onOpenChange={(open) => !open && setAdminAction(null)}
        title="Warning"
        text={
          adminAction === 'check'
            ? 'Checking user roles may alter current user roles and ACLs. Sure you want to continue?'
            : 'Are you sure you want to recompile *ALL* ACLs for all users and projects?'
        }
        busy={isPending('admin')}
        onConfirm={() => void runAdminAction()}
      />
      <Dialog open={failure !== null} onOpenChange={(open) => !open && setFailure(null)} title="Error" footer={<Button onClick={() => setFailure(null)}>OK</Button>}>
        <Alert type="error">{failure}</Alert>
      </Dialog>
    </Card>
  )
}

/** Create/edit form: permissions offered by scope, assignable-by choices, in-use lock, per-field server errors. */
function RoleDialog({ data, role, onClose }: { data: RolesData; role: RoleRow | null; onClose: () => void }) {
  const { run, anyPending } = useApiMutation()
  const [name, setName] = useState(role?.name ?? '')
  const [description, setDescription] = useState(role?.description ?? '')
  const [scope, setScope] = useState<number>(role?.resourceType ?? (data.organizationId ? Scope.Organization : Scope.Global))
  const [permissions, setPermissions] = useState<Set<string>>(new Set(role?.permissions ?? []))
  const [assignableBy, setAssignableBy] = useState<Set<string>>(new Set(role?.assignableBy ?? []))
  const [issues, setIssues] = useState<{ path: string; message: string }[]>([])

  const offered = new Set<string>(permissionsForScope(scope))
  const owner = scope === Scope.Global ? '' : (role?.organizationId ?? data.organizationId)
  const candidates = data.assignableByCandidates.filter((c) => c.resourceType >= scope && (c.organizationId === '' || c.organizationId === owner))
  const scopes = role && !data.scopes.includes(role.resourceType) ? [role.resourceType, ...data.scopes] : data.scopes

  const changeScope = (next: number) => {
    setScope(next)
    // Permissions and assignable-by roles the new scope does not allow are dropped.
    const allowed = new Set<string>(permissionsForScope(next))
    setPermissions((current) => new Set([...current].filter((p) => allowed.has(p))))
    setAssignableBy((current) => new Set([...current].filter((id) => (data.assignableByCandidates.find((c) => c.id === id)?.resourceType ?? -1) >= next)))
  }
  const flip = (set: Set<string>, value: string) => {
    const next = new Set(set)
    if (next.has(value)) next.delete(value)
    else next.add(value)
    return next
  }

  const save = async () => {
    setIssues([])
    const doc = { name, description, resourceType: scope, permissions: [...permissions], assignableBy: [...assignableBy] }
    const onError = (error: ApiError) => {
      setIssues(error.issues.length > 0 ? error.issues : [{ path: '', message: error.message }])
      return true
    }
    const result = role
      ? await run('auth/userRoleUpdate', { id: role.id, doc }, { success: 'Role updated', onError })
      : await run('auth/userRoleCreate', { organizationId: data.organizationId, ...doc }, { success: 'Role created', onError })
    if (result) onClose()
  }

  const general = issueFor(issues, '') ?? issues.find((i) => !['name', 'description', 'resourceType', 'permissions', 'assignableBy'].includes(i.path))?.message

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={role ? `Edit Role '${role.name}'` : 'New Role'}
      className="max-w-3xl"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void save()} disabled={anyPending}>
            Save
          </Button>
        </>
      }
    >
      <form
        className="flex max-h-[65vh] flex-col gap-3 overflow-y-auto pr-1"
        onSubmit={(e) => {
          e.preventDefault()
          void save()
        }}
      >
        {general ? <Alert type="error">{general}</Alert> : null}
        <div className="grid grid-cols-[1fr_12rem] gap-3">
          <Field label="Name" error={issueFor(issues, 'name')}>
            {(props) => <Input {...props} value={name} onChange={(e) => setName(e.target.value)} />}
          </Field>
          <Field label="Scope" error={issueFor(issues, 'resourceType')}>
            {(props) => (
              <NativeSelect {...props} value={scope} disabled={role?.inUse} onChange={(e) => changeScope(Number(e.target.value))}>
                {scopes.map((s) => (
                  <option key={s} value={s}>
                    {scopeName(s)}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
        </div>
        {role?.inUse ? (
          <p className="flex items-center gap-1.5 text-xs text-amber-700">
            <Lock className="size-3.5" /> This role is in use
          </p>
        ) : null}
        <Field label="Description" error={issueFor(issues, 'description')}>
          {(props) => <Textarea {...props} rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />}
        </Field>
        <fieldset className="flex flex-col gap-2">
          <legend className={legendClass}>Permissions</legend>
          {groupNames
            .map((group) => ({ group, list: (PERMISSION_GROUPS[group].permissions as readonly string[]).filter((p) => offered.has(p)) }))
            .filter((g) => g.list.length > 0)
            .map((g) => (
              <div key={g.group} className="rounded-md border px-3 py-2">
                <p className="mb-1 text-xs font-semibold text-muted-foreground">{g.group}</p>
                <div className="grid grid-cols-2 gap-x-4 gap-y-1 sm:grid-cols-3">
                  {g.list.map((p) => (
                    <label key={p} className="flex min-w-0 items-center gap-1.5 font-mono text-xs" title={p}>
                      <input type="checkbox" className="shrink-0 accent-primary" checked={permissions.has(p)} onChange={() => setPermissions((s) => flip(s, p))} />
                      <span className="truncate">{p}</span>
                    </label>
                  ))}
                </div>
              </div>
            ))}
          {issueFor(issues, 'permissions') ? <p className="text-xs text-destructive">{issueFor(issues, 'permissions')}</p> : null}
        </fieldset>
        <fieldset className="flex flex-col gap-1">
          <legend className={legendClass}>Assignable by</legend>
          <p className="text-xs text-muted-foreground">Members holding one of these roles may give this role to others (site administrators always may).</p>
          {candidates.length === 0 ? (
            <p className="text-xs text-muted-foreground">No roles to choose from.</p>
          ) : (
            <div className="grid grid-cols-2 gap-x-4 gap-y-1 rounded-md border px-3 py-2 sm:grid-cols-3">
              {candidates.map((c) => (
                <label key={c.id} className="flex items-center gap-1.5 text-xs">
                  <input type="checkbox" className="accent-primary" checked={assignableBy.has(c.id)} onChange={() => setAssignableBy((s) => flip(s, c.id))} />
                  {c.name}
                </label>
              ))}
            </div>
          )}
          {issueFor(issues, 'assignableBy') ? <p className="text-xs text-destructive">{issueFor(issues, 'assignableBy')}</p> : null}
        </fieldset>
      </form>
    </Dialog>
  )
}
