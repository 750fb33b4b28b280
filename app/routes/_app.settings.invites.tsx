import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData, useNavigate } from '@remix-run/react'
import { Check, Mail, X } from 'lucide-react'
import { useState } from 'react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { InviteManageButtons, InviteRoleText } from '~/components/invites/invite-parts'
import { RevokeInviteDialog } from '~/components/invites/revoke-invite-dialog'
import { EmptyState } from '~/components/page-header'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { DateTime } from '~/components/ui/date-time'
import { listMyInvites } from '~/domain/invites/invites.server'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'
import { useApiMutation } from '~/utils/use-api-mutation'

export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  return domainCall(() => listMyInvites(actor))
}

export const meta: MetaFunction = () => [{ title: 'Invites · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'Invites', to: '.' }) }

type Invite = ReturnType<typeof useLoaderData<typeof loader>>['invites'][number]

/** User settings, Invites: invitations addressed to the user's verified e-mail. */
export default function MyInvitesTab() {
  const { invites } = useLoaderData<typeof loader>()
  const { run, isPending } = useApiMutation()
  const navigate = useNavigate()
  const [revoking, setRevoking] = useState<Invite | null>(null)

  if (invites.length === 0) return <EmptyState icon={<Mail className="size-8" />} title="No invitations" text="Invitations to join an organization appear here." />

  const accept = async (invite: Invite) => {
    const result = await run<{ organizationId: string }>('invite/accept', { inviteId: invite.id }, { key: invite.id, success: `You joined ${invite.organizationName}` })
    if (result) navigate(`/organization/${result.organizationId}`)
  }
  return (
    <Card>
      <table className="w-full text-sm" aria-label="Invites">
        <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
          <tr>
            <th className="px-3 py-2 font-medium">Organization</th>
            <th className="px-3 py-2 font-medium">Role</th>
            <th className="px-3 py-2 font-medium">Sent</th>
            <th className="px-3 py-2" />
          </tr>
        </thead>
        <tbody>
          {invites.map((invite) => (
            <tr key={invite.id} className="border-b last:border-0">
              <td className="px-3 py-2 font-medium">{invite.organizationName}</td>
              <td className="px-3 py-2 text-muted-foreground">
                <InviteRoleText invite={invite} />
              </td>
              <td className="px-3 py-2 text-muted-foreground"><DateTime value={invite.sent} /></td>
              <td className="whitespace-nowrap px-3 py-1 text-right">
                <Button size="sm" disabled={isPending(invite.id)} onClick={() => void accept(invite)}>
                  <Check /> Accept
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={isPending(invite.id)}
                  onClick={() => void run('invite/decline', { inviteId: invite.id }, { key: invite.id, success: 'Invitation declined' })}
                >
                  <X /> Decline
                </Button>
                {invite.canManage ? <InviteManageButtons inviteId={invite.id} onRevoke={() => setRevoking(invite)} /> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <RevokeInviteDialog invite={revoking} onClose={() => setRevoking(null)} />
    </Card>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
