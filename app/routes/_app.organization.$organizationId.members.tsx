import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { Mail, UserPlus } from 'lucide-react'
import { useState } from 'react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { InviteManageButtons, InviteRoleText } from '~/components/invites/invite-parts'
import { RevokeInviteDialog } from '~/components/invites/revoke-invite-dialog'
import { MembersTable } from '~/components/members/members-table'
import { PageHeader } from '~/components/page-header'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { DateTime } from '~/components/ui/date-time'
import { ConfirmDialog } from '~/components/ui/dialog'
import { Field, issueFor } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { NativeSelect } from '~/components/ui/native-select'
import { listInvites } from '~/domain/invites/invites.server'
import { ExplainAccessCard } from '~/components/access/explain-access'
import { explainChoices } from '~/domain/access/explain.server'
import { listMembers, type Member } from '~/domain/members/members.server'
import { useOrganization } from '~/routes/_app.organization.$organizationId'
import { type ApiError } from '~/utils/api-client'
import { domainCall } from '~/utils/errors.server'
import { formatCount } from '~/utils/format-time'
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

function InvitesTable({ invites }: { invites: Invite[] }) {
  const [revoking, setRevoking] = useState<Invite | null>(null)
  return (
    <Card>
      <CardHeader>
        <CardTitle>Invites ({formatCount(invites.length)})</CardTitle>
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
