import { type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData, useRevalidator } from '@remix-run/react'
import { useState } from 'react'
import { toast } from 'sonner'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { toastError } from '~/components/inline-edit-field'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { getBilling, type BillingStatus } from '~/domain/organizations/organizations.server'
import { getOrganizationAccess } from '~/domain/access/access.server'
import { listOrganizationInvoices } from '~/domain/billing/invoices.server'
import { InvoiceList } from '~/components/admin-orgs/invoice-list'
import { callApi } from '~/utils/api-client'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'

/** Billing tab: needs org.billing.view (else the Access denied page). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const billing = await domainCall(() => getBilling(actor, params.organizationId!))
  // Invoices only for holders of org.invoices.view; the status above needs only org.billing.view.
  const access = await domainCall(() => getOrganizationAccess(actor, params.organizationId!))
  const invoices = access.can('org.invoices.view') ? (await domainCall(() => listOrganizationInvoices(actor, params.organizationId!))).items : null
  return { organizationId: params.organizationId!, ...billing, invoices }
}

export const handle = { breadcrumb: () => ({ label: 'Billing', to: '.' }) }

const STATUS: Record<BillingStatus, { label: string; variant: 'secondary' | 'warning' | 'success' | 'destructive' | 'default'; text: string }> = {
  disabled: { label: 'Disabled', variant: 'secondary', text: 'No billing agreement is in place. Request one to start using the service commercially.' },
  requested: { label: 'Requested', variant: 'warning', text: 'A billing agreement was requested. A representative will contact you to complete it.' },
  enabled: { label: 'Enabled', variant: 'success', text: 'A billing agreement is active. Changes go through your representative.' },
  suspended: { label: 'Suspended', variant: 'destructive', text: 'Billing is suspended. Please contact your representative.' },
  internal: { label: 'Internal', variant: 'default', text: 'Internal organization (testing or demo): no agreement is needed.' },
}

const PERIOD: Record<string, string> = { monthly: 'Monthly', quarterly: 'Quarterly', yearly: 'Yearly', custom: 'Custom' }

export default function OrganizationBillingSettings() {
  const billing = useLoaderData<typeof loader>()
  const revalidator = useRevalidator()
  const [busy, setBusy] = useState(false)
  const status = STATUS[billing.billingStatus] ?? STATUS.disabled
  const request = async () => {
    setBusy(true)
    try {
      await callApi('organization/billingStatusUpdateRequest', { id: billing.organizationId })
      toast.success('Billing Status Updated')
      revalidator.revalidate()
    } catch (e) {
      toastError(e)
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="flex max-w-3xl flex-col gap-4">
      <Card>
        <CardHeader>
          <CardTitle>Billing</CardTitle>
          <CardDescription>The billing agreement of this organization.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <dl className="grid grid-cols-[8rem_1fr] gap-y-2 text-sm">
            <dt className="text-muted-foreground">Status</dt>
            <dd>
              <Badge variant={status.variant} data-testid="billing-status">
                {status.label}
              </Badge>
            </dd>
            <dt className="text-muted-foreground">Period</dt>
            <dd>{PERIOD[billing.billingPeriod] ?? billing.billingPeriod}</dd>
          </dl>
          <p className="text-sm text-muted-foreground">{status.text}</p>
          {billing.canRequest ? (
            <Button className="w-fit" onClick={() => void request()} disabled={busy}>
              Request Billing Agreement
            </Button>
          ) : null}
        </CardContent>
      </Card>
      {billing.invoices ? (
        <Card>
          <CardHeader>
            <CardTitle>Invoices</CardTitle>
            <CardDescription>Invoices your representative recorded for this organization. The invoice documents come from our accounting system.</CardDescription>
          </CardHeader>
          <CardContent>
            <InvoiceList invoices={billing.invoices} testId="org-invoices" />
          </CardContent>
        </Card>
      ) : null}
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
