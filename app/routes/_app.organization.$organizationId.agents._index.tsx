import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { Plus } from 'lucide-react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { AgentsTable } from '~/components/fleet/agents-table'
import { PageHeader } from '~/components/page-header'
import { Button } from '~/components/ui/button'
import { agentsTable } from '~/domain/fleet/agents-table.server'
import { parseAgentTableQuery } from '~/domain/fleet/agents-table-state'
import { useOrganization } from '~/routes/_app.organization.$organizationId'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'
import { useLiveRevalidate } from '~/utils/use-live-revalidate'

/** The agents list: filtering, sorting and paging of the URL's table state run in the database. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const query = parseAgentTableQuery(new URL(request.url).searchParams)
  return { table: await domainCall(() => agentsTable(actor, params.organizationId!, query)) }
}

export const meta: MetaFunction = () => [{ title: 'Agents · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'Agents', to: '.' }) }

export default function AgentsPage() {
  const { table } = useLoaderData<typeof loader>()
  const { organization, capabilities } = useOrganization()
  useLiveRevalidate(organization.id, ['agent', 'system', 'issue', 'project'])
  return (
    <div>
      <PageHeader
        title="Agents"
        subtitle="Manage and enroll agents across your organization"
        actions={
          capabilities.canAgentEnroll ? (
            <Button asChild>
              <Link to={`/enroll?organizationId=${organization.id}`}>
                <Plus /> Enroll Agent
              </Link>
            </Button>
          ) : null
        }
      />
      <AgentsTable organization={organization} data={table} canDelete={capabilities.canAgentDelete} canAssign={capabilities.canAssignToProject} />
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
