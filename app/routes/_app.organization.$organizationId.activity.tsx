import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { AuditLog } from '~/components/logs/audit-log'
import { PageHeader } from '~/components/page-header'
import { listAuditRecords } from '~/domain/audit/activity.server'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const organizationId = params.organizationId ?? ''
  const firstPage = await domainCall(() => listAuditRecords(actor, { organizationId }))
  return { organizationId, firstPage }
}

export const meta: MetaFunction = () => [{ title: 'Activity · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'Activity', to: '.' }) }

/** The organization's audit log (spec 02 section 2, Activity and metrics logs). */
export default function ActivityPage() {
  const { organizationId, firstPage } = useLoaderData<typeof loader>()
  return (
    <div className="max-w-6xl space-y-4">
      <PageHeader title="Activity" subtitle="View activity across your projects and organization" />
      <AuditLog organizationId={organizationId} firstPage={firstPage} emptyText="Changes people make in this organization appear here." />
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
