import { ConfirmDialog } from '~/components/ui/dialog'
import { useApiMutation } from '~/utils/use-api-mutation'

/** 'Revoke Invite' confirmation (Yes, No); revokes through organization/inviteRevoke. */
export function RevokeInviteDialog({ invite, onClose }: { invite: { id: string; recipient: string } | null; onClose: () => void }) {
  const { run, anyPending } = useApiMutation()
  return (
    <ConfirmDialog
      open={invite !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Revoke Invite"
      text={invite ? `Are you sure you want to revoke the invitation to ${invite.recipient}?` : ''}
      confirmLabel="Yes"
      cancelLabel="No"
      destructive
      busy={anyPending}
      onConfirm={async () => {
        if (!invite) return
        await run('organization/inviteRevoke', { inviteId: invite.id }, { success: 'Invite revoked' })
        onClose()
      }}
    />
  )
}
