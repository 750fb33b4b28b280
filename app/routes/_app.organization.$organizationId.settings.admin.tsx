import { type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData, useNavigate } from '@remix-run/react'
import { useState, type ReactNode } from 'react'
import { toast } from 'sonner'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { toastError } from '~/components/inline-edit-field'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { ConfirmDialog } from '~/components/ui/dialog'
import { Label } from '~/components/ui/field'
import { getOrganization, listTransferCandidates } from '~/domain/organizations/organizations.server'
import { callApi } from '~/utils/api-client'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'

/** Admin tab (Danger Zone): transfer ownership, delete, leave. Each action checks itself on the server. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const organizationId = params.organizationId!
  const [organization, candidates] = await domainCall(() => Promise.all([getOrganization(actor, organizationId), listTransferCandidates(actor, organizationId)]))
  return { organization, candidates }
}

export const handle = { breadcrumb: () => ({ label: 'Admin', to: '.' }) }

type Pending = 'transfer' | 'delete' | 'leave' | null

function DangerRow({ title, text, children }: { title: string; text: ReactNode; children: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-6 border-b px-4 py-4 last:border-0">
      <div className="min-w-0 flex-1">
        <p className="text-sm font-semibold">{title}</p>
        <div className="mt-0.5 text-sm text-muted-foreground">{text}</div>
      </div>
      <div className="flex shrink-0 items-center gap-2">{children}</div>
    </div>
  )
}

export default function OrganizationAdminSettings() {
  const { organization, candidates } = useLoaderData<typeof loader>()
  const navigate = useNavigate()
  const caps = organization.capabilities
  const isOwner = caps.isCurrentUserOwner
  const [newOwnerId, setNewOwnerId] = useState('')
  const [pending, setPending] = useState<Pending>(null)
  const [busy, setBusy] = useState(false)
  const newOwner = candidates.find((c) => c.id === newOwnerId)

  const run = async (call: () => Promise<unknown>, after: () => void) => {
    setBusy(true)
    try {
      await call()
      setPending(null)
      after()
    } catch (e) {
      toastError(e)
    } finally {
      setBusy(false)
    }
  }
  const id = organization.id
  const confirm = {
    transfer: {
      title: 'Transfer Ownership',
      text: `Are you sure you want to transfer this organization to ${newOwner?.name ?? ''}? You will no longer be the owner after the transfer.`,
      label: 'Transfer',
      // The spec reloads the whole page: every capability flag changes with the owner.
      action: () => run(() => callApi('organization/transferOwner', { id, newOwnerId }), () => window.location.reload()),
    },
    delete: {
      title: 'Delete Organization',
      text: 'Are you sure you want to DELETE this organization and ALL RELATED DATA? This action CAN NOT BE UNDONE.',
      label: 'Delete',
      action: () => run(() => callApi('organization/delete', { id }), () => navigate('/')),
    },
    leave: {
      title: 'Leave Organization',
      text: 'Are you sure you want to leave this organization?',
      label: 'Leave',
      action: () => run(() => callApi('organization/memberLeave', { id }), () => navigate('/')),
    },
  } as const
  const current = pending ? confirm[pending] : null

  return (
    <Card className="max-w-4xl border-red-200">
      <CardHeader className="border-red-200 bg-red-50/60">
        <CardTitle className="text-red-800">Danger Zone</CardTitle>
        <CardDescription>These actions change who owns or belongs to {organization.name}.</CardDescription>
      </CardHeader>
      <CardContent className="p-0">
        {isOwner ? (
          <DangerRow title="Transfer Ownership" text="Choose another member who holds the transfer permission. You stay a member with your current roles.">
            {candidates.length === 0 ? (
              <span className="text-sm text-muted-foreground">No other owners available</span>
            ) : (
              <>
                <Label htmlFor="new-owner" className="sr-only">
                  New owner
                </Label>
                <select
                  id="new-owner"
                  value={newOwnerId}
                  onChange={(e) => setNewOwnerId(e.target.value)}
                  className="h-8 rounded-md border border-input bg-card px-2 text-sm shadow-sm"
                >
                  <option value="">Select a new owner…</option>
                  {candidates.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name} ({c.email})
                    </option>
                  ))}
                </select>
                <Button
                  variant="outline"
                  onClick={() => (newOwnerId ? setPending('transfer') : toast.warning('Please select a new owner'))}
                >
                  Transfer
                </Button>
              </>
            )}
          </DangerRow>
        ) : null}
        {caps.canDelete ? (
          <DangerRow title="Delete Organization" text="Deletes the organization with its projects, members' access, roles, invites, notes and logs. Its agents become unenrolled.">
            <Button variant="destructive" onClick={() => setPending('delete')}>
              Delete Organization
            </Button>
          </DangerRow>
        ) : null}
        <DangerRow
          title="Leave Organization"
          text={isOwner ? 'The owner cannot leave the organization. Transfer the ownership first.' : 'You lose every access right you hold in this organization.'}
        >
          <Button variant="outline" className="text-destructive" disabled={isOwner} onClick={() => setPending('leave')}>
            Leave Organization
          </Button>
        </DangerRow>
      </CardContent>
      <ConfirmDialog
        open={current !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title={current?.title ?? ''}
        text={current?.text ?? ''}
        confirmLabel={current?.label}
        destructive
        busy={busy}
        onConfirm={() => void current?.action()}
      />
    </Card>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
