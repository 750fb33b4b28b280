import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData, useSearchParams, type UIMatch } from '@remix-run/react'
import { AlertTriangle, Server } from 'lucide-react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { InfoCard, StatusCard } from '~/components/fleet/agent-detail-cards'
import { ComponentIconSprite } from '~/components/fleet/component-icon-sprite'
import { SettingsTab, SystemTab } from '~/components/fleet/agent-detail-tabs'
import { LocationCard } from '~/components/fleet/agent-location-card'
import { ConnectionIcon } from '~/components/fleet/status'
import { type Crumb } from '~/components/shell/breadcrumbs'
import { TimeAgo } from '~/components/ui/date-time'
import { useOrganization } from '~/routes/_app.organization.$organizationId'
import { agentDetailPageData, type AgentDetailPageData as Data } from '~/utils/agent-detail-page.server'
import { cn } from '~/utils/cn'
import { useLiveRevalidate } from '~/utils/use-live-revalidate'

export async function loader({ request, params }: LoaderFunctionArgs) {
  return agentDetailPageData(request, params.organizationId!, params.agentId!)
}


export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.agent.name ?? 'Agent'} · Pixelfleet` }]
export const handle = {
  breadcrumb: (match: UIMatch<unknown, unknown>): Crumb[] => {
    const data = match.data as Data | undefined
    const base = `/organization/${match.params.organizationId}/agents`
    return [{ label: 'Agents', to: base }, ...(data ? [{ label: data.agent.name, to: `${base}/${data.agent.id}` }] : [])]
  },
}

export default function AgentDetailPage() {
  const data = useLoaderData<typeof loader>()
  const { organization } = useOrganization()
  const { agent, systems } = data
  useLiveRevalidate(organization.id, ['agent', 'system', 'issue', 'project'])
  const [params, setParams] = useSearchParams()
  const tabs = [...systems.map((s) => ({ id: s.id, label: `System ${s.key}` })), { id: 'settings', label: 'Settings' }]
  const active = tabs.find((t) => t.id === params.get('tab'))?.id ?? tabs[0].id
  const system = systems.find((s) => s.id === active)

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <div className="flex size-10 items-center justify-center rounded-lg border bg-card">
          <Server className="size-5 text-muted-foreground" />
        </div>
        <div className="min-w-0">
          <h1 className="flex items-center gap-2 text-xl font-semibold tracking-tight">
            {agent.name}
            <ConnectionIcon connected={agent.isConnected} unknown={!agent.lastSeen} />
          </h1>
          <p className="text-sm text-muted-foreground">
            {systems.length} system{systems.length === 1 ? '' : 's'} reporting
            {' · '}
            Last reported {agent.lastReported ? <TimeAgo value={agent.lastReported} /> : 'never'}
          </p>
        </div>
      </div>

      {data.unassignedCount > 0 ? (
        <div role="alert" className="flex items-center gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <AlertTriangle className="size-4" />
          {data.unassignedCount} System(s) reporting data, but not assigned to any project.
        </div>
      ) : null}

      <div className="grid gap-4 lg:grid-cols-3">
        <StatusCard data={data} organizationId={organization.id} />
        <InfoCard agent={agent} />
        <LocationCard data={data} organizationId={organization.id} />
      </div>

      <nav className="flex gap-1 relative overflow-x-auto border-b" role="tablist">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={t.id === active}
            onClick={() => setParams((prev) => ({ ...Object.fromEntries(prev), tab: t.id }), { replace: true, preventScrollReset: true })}
            className={cn(
              '-mb-px whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium',
              t.id === active ? 'border-primary text-foreground' : 'border-transparent text-muted-foreground hover:text-foreground',
            )}
          >
            {t.label}
          </button>
        ))}
      </nav>
      {system ? <SystemTab system={system} data={data} organizationId={organization.id} /> : <SettingsTab data={data} organizationId={organization.id} />}
      <ComponentIconSprite />
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
