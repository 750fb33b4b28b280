import { useRevalidator } from '@remix-run/react'
import { useState } from 'react'
import { toast } from 'sonner'
import { toastError } from '~/components/inline-edit-field'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Field } from '~/components/ui/field'
import { NativeSelect } from '~/components/ui/native-select'
import { callApi } from '~/utils/api-client'
import { cn } from '~/utils/cn'
import { OrgInvoices } from './org-invoices'
import { OrgUsage } from './org-usage'
import { type AdminOrg } from './admin-org'

const STATUSES = ['disabled', 'requested', 'enabled', 'suspended', 'internal'] as const
const PERIODS = ['monthly', 'quarterly', 'yearly', 'custom'] as const

/** Usage tab (key 'billing'): sub-tabs 'Metric Events' (usage overview) and 'Manage' (status, invoices). */
export function OrgBilling({ org }: { org: AdminOrg }) {
  const [sub, setSub] = useState<'events' | 'manage'>(org.billingStatus === 'requested' ? 'manage' : 'events')
  return (
    <div className="flex flex-col gap-4">
      <div className="flex w-fit rounded-md border p-0.5 text-sm" role="tablist" aria-label="Billing">
        {(
          [
            ['events', 'Metric Events'],
            ['manage', 'Manage'],
          ] as const
        ).map(([key, label]) => (
          <button
            key={key}
            type="button"
            role="tab"
            aria-selected={sub === key}
            onClick={() => setSub(key)}
            className={cn('rounded px-3 py-1', sub === key ? 'bg-secondary font-medium' : 'text-muted-foreground hover:text-foreground')}
          >
            {label}
          </button>
        ))}
      </div>
      {sub === 'events' ? (
        <OrgUsage org={org} />
      ) : (
        <>
          <BillingStatusEditor org={org} />
          <OrgInvoices organizationId={org.id} />
        </>
      )}
    </div>
  )
}

function BillingStatusEditor({ org }: { org: AdminOrg }) {
  const revalidator = useRevalidator()
  const [status, setStatus] = useState(org.billingStatus)
  const [period, setPeriod] = useState(org.billingPeriod)
  const [busy, setBusy] = useState(false)
  const dirty = status !== org.billingStatus || period !== org.billingPeriod
  const save = async () => {
    setBusy(true)
    try {
      await callApi('admin/updateOrgBillingStatus', { organizationId: org.id, status, period })
      toast.success('Org Billing Status Updated')
      revalidator.revalidate()
    } catch (e) {
      toastError(e)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>Billing status</CardTitle>
        <CardDescription>Set the organization's billing agreement. The organization's admins see the new status in Settings &gt; Billing.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {org.billingStatus === 'requested' ? (
          <Alert type="warning" title="Billing requested">
            The organization asked for a billing agreement. Set it to enabled (or internal) once the agreement is in place.
          </Alert>
        ) : null}
        <div className="flex flex-wrap items-end gap-3">
          <Field label="Status" className="w-44">
            {(p) => (
              <NativeSelect {...p} value={status} onChange={(e) => setStatus(e.target.value)} data-testid="billing-status-select">
                {STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          <Field label="Period" className="w-44">
            {(p) => (
              <NativeSelect {...p} value={period} onChange={(e) => setPeriod(e.target.value)} data-testid="billing-period-select">
                {PERIODS.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          <Button onClick={() => void save()} disabled={!dirty || busy}>
            Save
          </Button>
        </div>
      </CardContent>
    </Card>
  )
}
