import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { AuditLog } from '~/components/logs/audit-log'
import { listAuditRecords } from '~/domain/audit/activity.server'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'

/** The project's Activity tab: its audit log and its sub-projects'; listAuditRecords checks the permission. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const organizationId = params.organizationId ?? ''
  const projectId = params.projectId ?? ''
  const firstPage = await domainCall(() => listAuditRecords(actor, { organizationId, projectId }))
  return { organizationId, projectId, firstPage }
}

export const meta: MetaFunction = () => [{ title: 'Project Activity · Pixelfleet' }]

export default function ProjectActivityTab() {
  const { organizationId, projectId, firstPage } = useLoaderData<typeof loader>()
  return <AuditLog organizationId={organizationId} projectId={projectId} firstPage={firstPage} emptyText="Changes people make in this project and its sub-projects appear here." />
}

export const ErrorBoundary = GeneralErrorBoundary
