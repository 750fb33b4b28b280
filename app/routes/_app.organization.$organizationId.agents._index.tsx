import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { Plus } from 'lucide-react'
import { useMemo } from 'react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { AgentsTable } from '~/components/fleet/agents-table'
import { PageHeader } from '~/components/page-header'
import { Button } from '~/components/ui/button'
import { agentsTable } from '~/domain/fleet/agents-table.server'
import { parseAgentTableQuery } from '~/domain/fleet/agents-table-state'
import type { ChangeEvent } from '~/domain/events/bus.server'
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
  // every router update (a live reload's loading and idle) renders this component; the memoized table
  // below renders again only when its data or these props changed
  const tableOrganization = useMemo(() => ({ id: organization.id, name: organization.name }), [organization.id, organization.name])
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
      <AgentsTable organization={tableOrganization} data={table} canDelete={capabilities.canAgentDelete} canAssign={capabilities.canAssignToProject} />
      <LiveAgents organizationId={organization.id} />
    </div>
  )
}

const LIVE_KINDS: ChangeEvent['kind'][] = ['agent', 'system', 'issue', 'project']

/** Live reloads of the list; a component of its own, so the revalidator's state changes render only it. */
function LiveAgents({ organizationId }: { organizationId: string }) {
  useLiveRevalidate(organizationId, LIVE_KINDS)
  return null
}

export const ErrorBoundary = GeneralErrorBoundary
