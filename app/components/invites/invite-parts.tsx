import { RotateCw, Trash2 } from 'lucide-react'
import { Button } from '~/components/ui/button'
import { useApiMutation } from '~/utils/use-api-mutation'

type InviteRoles = { roleName: string; projectRoleName: string | null; projects: { name: string }[] }

/** What an invite grants: the organization role, plus the project role and its projects when named. */
export function InviteRoleText({ invite }: { invite: InviteRoles }) {
  return (
    <>
      {invite.roleName}
      {invite.projects.length > 0 ? ` · ${invite.projectRoleName} on ${invite.projects.map((p) => p.name).join(', ')}` : ''}
    </>
  )
}

/** Resend and Revoke of one invite; Revoke opens the caller's RevokeInviteDialog. */
export function InviteManageButtons({ inviteId, onRevoke }: { inviteId: string; onRevoke: () => void }) {
  const { run, isPending } = useApiMutation()
  return (
    <>
      <Button variant="ghost" size="sm" disabled={isPending('resend')} onClick={() => void run('organization/inviteResend', { inviteId }, { key: 'resend', success: 'Invite resent' })}>
        <RotateCw /> Resend
      </Button>
      <Button variant="ghost" size="sm" className="text-destructive" onClick={onRevoke}>
        <Trash2 /> Revoke
      </Button>
    </>
  )
}
