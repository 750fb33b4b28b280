import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { AdminAgentsTable } from '~/components/admin/admin-agents-table'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PageHeader } from '~/components/page-header'
import { ADMIN_AGENTS_PAGE_SIZE, listAdminAgents } from '~/domain/admin/agents-admin.server'
import { requireSiteAdmin } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'

export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireSiteAdmin(request)
  const first = await domainCall(() => listAdminAgents(actor, { limit: ADMIN_AGENTS_PAGE_SIZE }))
  return { first, pageSize: ADMIN_AGENTS_PAGE_SIZE }
}

export const meta: MetaFunction = () => [{ title: 'Agents · Admin · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'Agents', to: '.' }) }

/** Admin > Agents: every agent of every organization, by name, with its enrollment and tunnels. */
export default function AdminAgents() {
  const data = useLoaderData<typeof loader>()
  return (
    <div className="space-y-4">
      <PageHeader title="Agents" subtitle="All agents across organizations, by name. Expand a row for its enrollment codes and live tunnel connections." />
      <AdminAgentsTable {...data} />
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
