import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { flexRender, getCoreRowModel, getExpandedRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table'
import { ChevronDown, ChevronRight, Mail, UserMinus, UserPlus, X } from 'lucide-react'
import { Fragment, useMemo, useState } from 'react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { InviteManageButtons, InviteRoleText } from '~/components/invites/invite-parts'
import { RevokeInviteDialog } from '~/components/invites/revoke-invite-dialog'
import { MemberTags } from '~/components/member-tags'
import { PageHeader } from '~/components/page-header'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { DateTime, TimeAgo } from '~/components/ui/date-time'
import { ConfirmDialog, Dialog } from '~/components/ui/dialog'
import { Field, issueFor } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { NativeSelect } from '~/components/ui/native-select'
import { Tooltip } from '~/components/ui/tooltip'
import { listInvites } from '~/domain/invites/invites.server'
import { ExplainAccessCard } from '~/components/access/explain-access'
import { explainChoices } from '~/domain/access/explain.server'
import { listMembers, type Member, type MemberAccessRight } from '~/domain/members/members.server'
import { useOrganization } from '~/routes/_app.organization.$organizationId'
import { type ApiError } from '~/utils/api-client'
import { domainCall } from '~/utils/errors.server'
import { formatDateTime } from '~/utils/format-time'
import { requireOrgPermission } from '~/utils/org-route.server'
import { useApiMutation } from '~/utils/use-api-mutation'
import { useLiveRevalidate } from '~/utils/use-live-revalidate'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor, access } = await requireOrgPermission(request, params.organizationId, 'org.view')
  const organizationId = access.organization.id
  const [members, invites, explain] = await Promise.all([
    domainCall(() => listMembers(actor, organizationId)),
    access.can('org.user.invite') ? domainCall(() => listInvites(actor, organizationId)) : null,
    domainCall(() => explainChoices(actor, organizationId)),
  ])
  return { ...members, invites: invites?.invites ?? null, explain, currentUserId: actor.userId }
}

export const meta: MetaFunction = () => [{ title: 'Members · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'Members', to: '.' }) }

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>
type Invite = NonNullable<LoaderData['invites']>[number]

export default function MembersPage() {
  const data = useLoaderData<typeof loader>()
  const { organization, capabilities } = useOrganization()
  useLiveRevalidate(organization.id, ['member', 'invite', 'role'])
  return (
    <div className="max-w-5xl space-y-4">
      <PageHeader title="Members" subtitle="People in this organization, their access rights and pending invitations" />
      {capabilities.canUserAdd ? <InviteMemberForm roles={data.memberRoles} /> : null}
      <MembersTable members={data.members as Member[]} />
      {data.invites ? <InvitesTable invites={data.invites} /> : null}
      <ExplainAccessCard organizationId={organization.id} choices={data.explain} currentUserId={data.currentUserId} />
    </div>
  )
}

/** 'Invite Member': adds a registered user directly; an unknown e-mail is offered an invite instead. */
function InviteMemberForm({ roles }: { roles: { id: string; name: string }[] }) {
  const { organization, capabilities } = useOrganization()
  const { run, anyPending } = useApiMutation()
  const [email, setEmail] = useState('')
  const [roleId, setRoleId] = useState('')
  const [issues, setIssues] = useState<{ path: string; message: string }[]>([])
  const [notRegistered, setNotRegistered] = useState<string | null>(null)

  const reset = () => {
    setEmail('')
    setRoleId('')
    setIssues([])
  }
  const canSubmit = capabilities.canUserAdd && email.trim().length > 0 && roleId !== '' && !anyPending

  const add = async () => {
    setIssues([])
    const result = await run('organization/memberAdd', { organizationId: organization.id, email, roleId }, {
      success: 'Member added',
      onError: (error: ApiError) => {
        if (error.code === 'API/auth/user-not-found') {
          setNotRegistered(email.trim())
          return true
        }
        if (error.issues.length > 0) {
          setIssues(error.issues)
          return true
        }
      },
    })
    if (result) reset()
  }

  const invite = async () => {
    const result = await run('organization/inviteCreate', { organizationId: organization.id, recipient: email, roleId }, { success: `Invite sent to ${email.trim()}` })
    setNotRegistered(null)
    if (result) reset()
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Invite Member</CardTitle>
        <CardDescription>Add a registered user by e-mail, or invite someone new to sign up.</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="flex flex-wrap items-start gap-2"
          onSubmit={(e) => {
            e.preventDefault()
            if (canSubmit) void add()
          }}
        >
          <Field error={issueFor(issues, 'email')} className="min-w-64 flex-1">
            {(props) => (
              <Input {...props} type="email" aria-label="Email" placeholder="name@example.com" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" />
            )}
          </Field>
          <Field error={issueFor(issues, 'roleId')} className="w-56">
            {(props) => (
              <NativeSelect {...props} aria-label="Role" value={roleId} disabled={email.trim().length === 0} onChange={(e) => setRoleId(e.target.value)}>
                <option value="">Select a role…</option>
                {roles.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.name}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          <Button type="submit" disabled={!canSubmit}>
            <UserPlus /> Add Member
          </Button>
        </form>
      </CardContent>
      <ConfirmDialog
        open={notRegistered !== null}
        onOpenChange={(open) => !open && setNotRegistered(null)}
        title="User Not Registered"
        text={`No user exists for email ${notRegistered}. Do you want to invite them to sign up?`}
        confirmLabel="Yes"
        cancelLabel="No"
        busy={anyPending}
        onConfirm={() => void invite()}
      />
    </Card>
  )
}

function MembersTable({ members }: { members: Member[] }) {
  const { organization } = useOrganization()
  const { run, isPending } = useApiMutation()
  const [removing, setRemoving] = useState<Member | null>(null)

  const columns = useMemo<ColumnDef<Member>[]>(
    () => [
      {
        id: 'expand',
        header: () => <span className="sr-only">Expand</span>,
        cell: ({ row }) => (
          <button
            type="button"
            onClick={row.getToggleExpandedHandler()}
            aria-label={row.getIsExpanded() ? `Hide access rights of ${row.original.name}` : `Show access rights of ${row.original.name}`}
            aria-expanded={row.getIsExpanded()}
            className="rounded p-0.5 text-muted-foreground hover:bg-accent"
          >
            {row.getIsExpanded() ? <ChevronDown className="size-4" /> : <ChevronRight className="size-4" />}
          </button>
        ),
      },
      {
        accessorKey: 'name',
        header: 'Name',
        cell: ({ row }) => (
          <span className="flex items-center gap-1.5 font-medium">
            {row.original.name || row.original.email}
            <MemberTags isOwner={row.original.isOwner} isYou={row.original.isYou} />
          </span>
        ),
      },
      { accessorKey: 'email', header: 'Email', cell: ({ getValue }) => <span className="text-muted-foreground">{getValue<string>()}</span> },
      {
        accessorKey: 'lastSeen',
        header: 'Last Seen',
        cell: ({ getValue }) => {
          const seen = getValue<number | null>()
          return seen ? (
            <Tooltip content={formatDateTime(seen)}>
              <span>
                <TimeAgo value={seen} />
              </span>
            </Tooltip>
          ) : (
            <span className="text-muted-foreground">Never</span>
          )
        },
      },
      {
        id: 'actions',
        header: () => <span className="sr-only">Actions</span>,
        cell: ({ row }) =>
          row.original.canRemove ? (
            <Button variant="ghost" size="sm" aria-label={`Remove ${row.original.name}`} onClick={() => setRemoving(row.original)}>
              <UserMinus /> Remove
            </Button>
          ) : null,
      },
    ],
    [],
  )

  const table = useReactTable({
    data: members,
    columns,
    getRowId: (m) => m.id,
    getCoreRowModel: getCoreRowModel(),
    getExpandedRowModel: getExpandedRowModel(),
    getRowCanExpand: () => true,
  })

  return (
    <Card>
      <CardHeader>
        <CardTitle>Members ({members.length})</CardTitle>
      </CardHeader>
      <div className="relative overflow-x-auto">
      <table className="w-full text-sm" aria-label="Members">
        <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((h) => (
                <th key={h.id} className={h.column.id === 'expand' ? 'w-8 px-3 py-2' : 'px-3 py-2 font-medium'}>
                  {flexRender(h.column.columnDef.header, h.getContext())}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <Fragment key={row.id}>
              <tr className="border-b last:border-0 hover:bg-muted/30">
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} className={cell.column.id === 'actions' ? 'px-3 py-1 text-right' : 'px-3 py-2'}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ))}
              </tr>
              {row.getIsExpanded() ? (
                <tr className="border-b bg-muted/20">
                  <td />
                  <td colSpan={columns.length - 1} className="px-3 py-2">
                    <AccessRights member={row.original} />
                  </td>
                </tr>
              ) : null}
            </Fragment>
          ))}
        </tbody>
      </table>
      </div>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title="Remove Member"
        text={removing ? `Are you sure you want to remove ${removing.name} (${removing.email}) from the organization?` : ''}
        confirmLabel="Remove"
        cancelLabel="Cancel"
        destructive
        busy={isPending('remove')}
        onConfirm={async () => {
          if (!removing) return
          await run('organization/memberRemove', { organizationId: organization.id, userId: removing.id }, { key: 'remove', success: 'Member removed' })
          setRemoving(null)
        }}
      />
    </Card>
  )
}

/** The expanded row: one line per access right with its role selector and remove button. */
function AccessRights({ member }: { member: Member }) {
  const { organization } = useOrganization()
  const { run, isPending } = useApiMutation()
  const [notAllowed, setNotAllowed] = useState<string | null>(null)

  const assign = (right: MemberAccessRight, roleId: string) =>
    run(
      'organization/userRoleAssign',
      { aclId: right.id, organizationId: organization.id, userId: member.id, roleId },
      {
        key: right.id,
        success: 'Role assigned',
        errorTitle: 'Failed to assign role',
        onError: (error) => {
          if (error.code !== 'API/role-not-allowed') return false
          setNotAllowed(error.message)
          return true
        },
      },
    )

  if (member.accessRights.length === 0) return <p className="text-xs text-muted-foreground">No access rights (owner only).</p>
  return (
    <>
      <table className="w-full text-[13px]" aria-label={`Access rights of ${member.name}`}>
        <thead className="text-left text-xs text-muted-foreground">
          <tr>
            <th className="py-1 pr-3 font-medium">Scope</th>
            <th className="py-1 pr-3 font-medium">Role</th>
            <th className="py-1" />
          </tr>
        </thead>
        <tbody>
          {member.accessRights.map((right) => {
            const choices = right.roleChoices.some((c) => c.id === right.roleId)
              ? right.roleChoices
              : [{ id: right.roleId, name: right.roleName }, ...right.roleChoices]
            return (
              <tr key={right.id}>
                <td className="py-1 pr-3">
                  <span className="font-medium">{right.scopeName}</span>
                  {right.resourceType !== right.scopeName ? <span className="ml-1.5 text-xs text-muted-foreground">{right.resourceType}</span> : null}
                </td>
                <td className="py-1 pr-3">
                  <NativeSelect
                    aria-label={`Role on ${right.scopeName}`}
                    value={right.roleId}
                    disabled={!right.canChangeRole || isPending(right.id)}
                    onChange={(e) => void assign(right, e.target.value)}
                    className="h-7 w-56"
                  >
                    {choices.map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.name}
                      </option>
                    ))}
                  </NativeSelect>
                </td>
                <td className="py-1 text-right">
                  {right.canRemove ? (
                    <Tooltip content="Remove access right">
                      <Button
                        variant="ghost"
                        size="sm"
                        aria-label={`Remove access right on ${right.scopeName}`}
                        disabled={isPending(`unassign-${right.id}`)}
                        onClick={() =>
                          void run('organization/userRoleUnassign', { aclId: right.id, organizationId: organization.id }, { key: `unassign-${right.id}`, success: 'Access right removed' })
                        }
                      >
                        <X />
                      </Button>
                    </Tooltip>
                  ) : null}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
      <Dialog
        open={notAllowed !== null}
        onOpenChange={(open) => !open && setNotAllowed(null)}
        title="Role is not allowed"
        description={notAllowed}
        footer={<Button onClick={() => setNotAllowed(null)}>OK</Button>}
      />
    </>
  )
}

function InvitesTable({ invites }: { invites: Invite[] }) {
  const [revoking, setRevoking] = useState<Invite | null>(null)
  return (
    <Card>
      <CardHeader>
        <CardTitle>Invites ({invites.length})</CardTitle>
      </CardHeader>
      {invites.length === 0 ? (
        <CardContent>
          <p className="text-sm text-muted-foreground">No pending invitations.</p>
        </CardContent>
      ) : (
        <div className="relative overflow-x-auto">
      <table className="w-full text-sm" aria-label="Invites">
          <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
            <tr>
              <th className="px-3 py-2 font-medium">Email</th>
              <th className="px-3 py-2 font-medium">Role</th>
              <th className="px-3 py-2 font-medium">Sent</th>
              <th className="px-3 py-2" />
            </tr>
          </thead>
          <tbody>
            {invites.map((invite) => (
              <tr key={invite.id} className="border-b last:border-0">
                <td className="px-3 py-2">
                  <span className="flex items-center gap-1.5">
                    <Mail className="size-3.5 text-muted-foreground" /> {invite.recipient}
                  </span>
                </td>
                <td className="px-3 py-2 text-muted-foreground">
                  <InviteRoleText invite={invite} />
                </td>
                <td className="px-3 py-2 text-muted-foreground"><DateTime value={invite.sent} /></td>
                <td className="whitespace-nowrap px-3 py-1 text-right">
                  <InviteManageButtons inviteId={invite.id} onRevoke={() => setRevoking(invite)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        </div>
      )}
      <RevokeInviteDialog invite={revoking} onClose={() => setRevoking(null)} />
    </Card>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
