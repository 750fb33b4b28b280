import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData, useNavigate } from '@remix-run/react'
import { Check, Mail, Send, X } from 'lucide-react'
import { useState } from 'react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { InviteManageButtons, InviteRoleText } from '~/components/invites/invite-parts'
import { RevokeInviteDialog } from '~/components/invites/revoke-invite-dialog'
import { EmptyState } from '~/components/page-header'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { DateTime } from '~/components/ui/date-time'
import { listMyInvites, listSentInvites } from '~/domain/invites/invites.server'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'
import { useApiMutation } from '~/utils/use-api-mutation'

export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  return domainCall(async () => {
    const [sent, received] = await Promise.all([listSentInvites(actor), listMyInvites(actor)])
    return { sent: sent.invites, received: received.invites }
  })
}

export const meta: MetaFunction = () => [{ title: 'Invites · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'Invites', to: '.' }) }

type Data = ReturnType<typeof useLoaderData<typeof loader>>
type SentInvite = Data['sent'][number]
type ReceivedInvite = Data['received'][number]

const th = 'px-3 py-2 font-medium'

/** User settings, Invites (spec 02): the invites the user sent, with Resend and Revoke; then invitations addressed to the user. */
export default function MyInvitesTab() {
  const { sent, received } = useLoaderData<typeof loader>()
  const [revoking, setRevoking] = useState<{ id: string; recipient: string } | null>(null)
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="sent-invites" className="flex flex-col gap-2">
        <h2 id="sent-invites" className="text-sm font-semibold">
          Sent invites
        </h2>
        {sent.length === 0 ? (
          <EmptyState icon={<Send className="size-8" />} title="No pending invites" text="Invitations you send from an organization's Members page appear here until they are answered." />
        ) : (
          <SentInvites invites={sent} onRevoke={setRevoking} />
        )}
      </section>
      <section aria-labelledby="received-invites" className="flex flex-col gap-2">
        <h2 id="received-invites" className="text-sm font-semibold">
          Received invites
        </h2>
        {received.length === 0 ? (
          <EmptyState icon={<Mail className="size-8" />} title="No invitations" text="Invitations to join an organization appear here." />
        ) : (
          <ReceivedInvites invites={received} onRevoke={setRevoking} />
        )}
      </section>
      <RevokeInviteDialog invite={revoking} onClose={() => setRevoking(null)} />
    </div>
  )
}

function SentInvites({ invites, onRevoke }: { invites: SentInvite[]; onRevoke: (invite: SentInvite) => void }) {
  return (
    <Card className="relative overflow-x-auto">
      <table className="w-full text-sm" aria-label="Sent invites">
        <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
          <tr>
            <th className={th}>Email</th>
            <th className={th}>Organization</th>
            <th className={th}>Role</th>
            <th className={th}>Sent</th>
            <th className="px-3 py-2">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {invites.map((invite) => (
            <tr key={invite.id} className="border-b last:border-0">
              <td className="px-3 py-2 font-medium">{invite.recipient}</td>
              <td className="px-3 py-2">{invite.organizationName}</td>
              <td className="px-3 py-2 text-muted-foreground">
                <InviteRoleText invite={invite} />
              </td>
              <td className="whitespace-nowrap px-3 py-2 text-muted-foreground">{invite.sent ? <DateTime value={invite.sent} /> : '—'}</td>
              <td className="whitespace-nowrap px-3 py-1 text-right">
                {invite.canManage ? (
                  <InviteManageButtons inviteId={invite.id} onRevoke={() => onRevoke(invite)} />
                ) : (
                  <span className="text-xs text-muted-foreground">You can no longer manage invites here</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  )
}

function ReceivedInvites({ invites, onRevoke }: { invites: ReceivedInvite[]; onRevoke: (invite: ReceivedInvite) => void }) {
  const { run, isPending } = useApiMutation()
  const navigate = useNavigate()
  const accept = async (invite: ReceivedInvite) => {
    const result = await run<{ organizationId: string }>('invite/accept', { inviteId: invite.id }, { key: invite.id, success: `You joined ${invite.organizationName}` })
    if (result) navigate(`/organization/${result.organizationId}`)
  }
  return (
    <Card className="relative overflow-x-auto">
      <table className="w-full text-sm" aria-label="Received invites">
        <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
          <tr>
            <th className={th}>Organization</th>
            <th className={th}>Role</th>
            <th className={th}>Sent</th>
            <th className="px-3 py-2">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {invites.map((invite) => (
            <tr key={invite.id} className="border-b last:border-0">
              <td className="px-3 py-2 font-medium">{invite.organizationName}</td>
              <td className="px-3 py-2 text-muted-foreground">
                <InviteRoleText invite={invite} />
              </td>
              <td className="whitespace-nowrap px-3 py-2 text-muted-foreground">{invite.sent ? <DateTime value={invite.sent} /> : '—'}</td>
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
                {invite.canManage ? <InviteManageButtons inviteId={invite.id} onRevoke={() => onRevoke(invite)} /> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
