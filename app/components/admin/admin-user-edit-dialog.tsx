import { useEffect, useState } from 'react'
import { toast } from 'sonner'
import { Switch } from '~/components/notifications/severity-controls'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Dialog } from '~/components/ui/dialog'
import { ApiError, callApi } from '~/utils/api-client'
import { type AdminUser } from './admin-user'

/** Mirrors the server rule (users-admin.server.ts): a verified address of the vendor's domain. */
const mayBeAdmin = (user: AdminUser, vendorDomain: string) =>
  user.emailVerified && user.email.slice(user.email.lastIndexOf('@') + 1).toLowerCase() === vendorDomain.toLowerCase()

/**
 * The user edit dialog: Disabled and Admin. Both are locked on one's own account; Admin shows
 * only for a verified vendor address (or to take the claim away from someone who holds it).
 */
export function AdminUserEditDialog({
  user,
  selfId,
  vendorDomain,
  onClose,
  onSaved,
}: {
  user: AdminUser | null
  selfId: string
  vendorDomain: string
  onClose: () => void
  onSaved: (user: AdminUser) => void
}) {
  const [disabled, setDisabled] = useState(false)
  const [admin, setAdmin] = useState(false)
  const [saving, setSaving] = useState(false)
  useEffect(() => {
    setDisabled(user?.disabled ?? false)
    setAdmin(Boolean(user?.customClaims.admin))
  }, [user])
  if (!user) return null
  const own = user.uid === selfId
  const showAdmin = mayBeAdmin(user, vendorDomain) || Boolean(user.customClaims.admin)
  const changed = disabled !== user.disabled || admin !== Boolean(user.customClaims.admin)

  const save = async () => {
    setSaving(true)
    try {
      const updated = await callApi<AdminUser>('admin/updateUser', { uid: user.uid, disabled, customClaims: { admin } })
      toast.success('User Updated')
      onSaved(updated)
    } catch (e) {
      toast.error(e instanceof ApiError ? e.message : 'An unrecognized error has occurred')
    } finally {
      setSaving(false)
    }
  }

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Edit User"
      description={`${user.displayName || '(no name)'} · ${user.email}`}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={save} disabled={!changed || saving || own}>
            Save
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-3">
        {own ? <Alert type="info">This is your own account: its Admin and Disabled settings can only be changed by another site admin.</Alert> : null}
        {showAdmin ? (
          <label className="flex items-start justify-between gap-4 text-sm">
            <span>
              <span className="font-medium">Admin</span>
              <span className="block text-xs text-muted-foreground">Site administrator: the admin area and every organization.</span>
            </span>
            <Switch label="Admin" checked={admin} onCheckedChange={setAdmin} disabled={own} />
          </label>
        ) : (
          <p className="text-xs text-muted-foreground">Only a verified {vendorDomain} e-mail address can be made a site admin.</p>
        )}
        <label className="flex items-start justify-between gap-4 text-sm">
          <span>
            <span className="font-medium">Disabled</span>
            <span className="block text-xs text-muted-foreground">Blocks sign-in and ends every browser session and API token of the user at once.</span>
          </span>
          <Switch label="Disabled" checked={disabled} onCheckedChange={setDisabled} disabled={own} />
        </label>
      </div>
    </Dialog>
  )
}
