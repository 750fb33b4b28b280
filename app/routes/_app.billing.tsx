import { type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { Receipt } from 'lucide-react'
import { BillingBadge } from '~/components/admin-orgs/parts'
import { InvoiceList } from '~/components/admin-orgs/invoice-list'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { EmptyState, PageHeader } from '~/components/page-header'
import { Card, CardContent, CardHeader, CardTitle } from '~/components/ui/card'
import { billingOverview } from '~/domain/billing/invoices.server'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'

/** The signed-in user's organizations where they may see billing or invoices. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  return { organizations: await domainCall(() => billingOverview(actor)) }
}

export const handle = { breadcrumb: () => ({ label: 'Billing', to: '.' }) }

export default function Page() {
  const { organizations } = useLoaderData<typeof loader>()
  return (
    <div className="max-w-4xl">
      <PageHeader
        title="Billing"
        subtitle="Billing agreements and invoices of your organizations. Invoices are records kept by your representative; the documents come from our accounting system."
      />
      {organizations.length === 0 ? (
        <EmptyState
          icon={<Receipt className="size-6" />}
          title="No billing information for you"
          text="None of your organizations lets you view billing or invoices. Ask an organization admin if you need access."
        />
      ) : (
        <div className="flex flex-col gap-4">
          {organizations.map((o) => (
            <Card key={o.id} data-testid={`billing-org-${o.id}`}>
              <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
                <CardTitle>
                  <Link to={`/organization/${o.id}/settings/billing`} className="hover:underline">
                    {o.name}
                  </Link>
                </CardTitle>
                {o.billingStatus ? <BillingBadge status={o.billingStatus} period={o.billingPeriod ?? undefined} /> : null}
              </CardHeader>
              <CardContent>
                {o.canViewInvoices ? (
                  <>
                    <InvoiceList invoices={o.invoices} />
                    {o.moreInvoices ? <p className="pt-2 text-xs text-muted-foreground">Showing the 24 most recent invoices.</p> : null}
                  </>
                ) : (
                  <p className="text-sm text-muted-foreground">You may see this organization's billing status but not its invoices.</p>
                )}
              </CardContent>
            </Card>
          ))}
        </div>
      )}
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
