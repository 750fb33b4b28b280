import { type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData, useLocation } from '@remix-run/react'
import { ChevronDown, ChevronRight, ExternalLink } from 'lucide-react'
import { Fragment, useEffect, useState } from 'react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { TooltipHost } from '~/components/ui/delegated-tooltip'
import { ComponentIconSprite, SpriteComponentIcon } from '~/components/fleet/component-icon-sprite'
import { LastSeen } from '~/components/fleet/last-seen'
import { ConnectionIcon, HealthCell, RemoteConnect, portalLink } from '~/components/fleet/status'
import { EmptyState } from '~/components/page-header'
import { Button } from '~/components/ui/button'
import { Pager, pageParam } from '~/components/ui/pager'
import { useRowsOnServer } from '~/components/ui/rows-on-server'
import { componentLabel } from '~/domain/fleet/labels'
import { projectAgents } from '~/domain/fleet/project.server'
import { useOrganization } from '~/routes/_app.organization.$organizationId'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'
import { useLiveRevalidate } from '~/utils/use-live-revalidate'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const focus = new URL(request.url).searchParams.get('focus')
  const agents = await domainCall(() => projectAgents(actor, params.organizationId!, params.projectId!, { page: pageParam(request.url), focus }))
  return { ...agents, focus }
}

/**
 * Agents the server renders of a page of 25 (decision 107): an agent is two table rows, ~48 px; the
 * table starts ~170 px down, so 16 fill a 1080p window (950 px) and more.
 */
const AGENTS_ON_SERVER = 16

const HEADERS = ['Id', '', 'Name', 'Serial', 'Connected', 'Health', 'Packet Loss', 'Last Seen', 'Processor Input', 'Tiles', 'Software', 'Remote Connect', '']

/** Agents tab: agents reporting to this project, with a device summary row under each. */
export default function ProjectAgents() {
  const { rows: allRows, page, pageCount, pageSize, total, focus } = useLoaderData<typeof loader>()
  const { organization } = useOrganization()
  const location = useLocation()
  useLiveRevalidate(organization.id, ['agent', 'system', 'issue', 'project'])
  // the projects list links agents as .../agents#{agentId}: open that row
  const [open, setOpen] = useState<Record<string, boolean>>({})
  useEffect(() => {
    const id = location.hash.slice(1)
    if (id) setOpen((o) => ({ ...o, [id]: true }))
  }, [location.hash])
  // a focused agent (?focus=, the projects list's tags) is in the server's HTML, so its #anchor scrolls there
  const rows = useRowsOnServer(allRows, Math.max(AGENTS_ON_SERVER, allRows.findIndex((r) => r.id === focus) + 1))
  if (!rows.length) return <EmptyState title="No agents" text="No system of this project (or its sub-projects) is reporting yet." />
  return (
    <div className="flex flex-col gap-2">
      <ComponentIconSprite />
      <TooltipHost className="relative overflow-x-auto rounded-lg border bg-card">
        <table className="w-full text-[13px]">
          <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
            <tr>
              {HEADERS.map((h, i) => (
                <th key={i} className={`h-9 whitespace-nowrap px-2 font-medium ${i === 0 ? 'hidden' : ''}`}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((a) => (
              <Fragment key={a.id}>
                <tr id={a.id} className="border-b hover:bg-muted/30">
                  <td className="hidden px-2 font-mono text-xs">{a.id}</td>
                  <td className="w-8 px-2">
                    <button type="button" aria-label={open[a.id] ? 'Collapse row' : 'Expand row'} className="rounded p-0.5 text-muted-foreground hover:bg-accent" onClick={() => setOpen({ ...open, [a.id]: !open[a.id] })}>
                      {open[a.id] ? <ChevronDown className="size-4" /> : <ChevronRight className="size-4" />}
                    </button>
                  </td>
                  <td className="px-2 font-medium">
                    <Link to={`/organization/${organization.id}/agents/${a.id}`} className="hover:underline">
                      {a.name}
                    </Link>
                  </td>
                  <td className="px-2 font-mono text-xs text-muted-foreground">{a.serial}</td>
                  <td className="px-2">
                    <ConnectionIcon connected={a.isConnected} unknown={!a.lastSeen} />
                  </td>
                  <td className="px-2">
                    <HealthCell {...a} />
                  </td>
                  <td className="px-2 tabular-nums">{a.packetLoss ?? '—'}</td>
                  <td className="px-2">
                    <LastSeen value={a.lastSeen} />
                  </td>
                  <td className="px-2">{a.processorInput ?? '—'}</td>
                  <td className="px-2 tabular-nums">{a.processorTiles ?? (a.tiles || '—')}</td>
                  <td className="px-2 text-xs text-muted-foreground">{a.deviceVersionsSummary || a.version}</td>
                  <td className="px-2">
                    <RemoteConnect organizationId={organization.id} agent={a} canConnect={a.canConnect} />
                  </td>
                  <td className="px-2 text-right">
                    {a.isConnected && a.isTunnelConnected && a.canConnect ? (
                      <Button asChild variant="ghost" size="icon" className="size-7">
                        <Link to={portalLink(organization.id, a.id, location.pathname)} aria-label={`Open portal of ${a.name}`}>
                          <ExternalLink />
                        </Link>
                      </Button>
                    ) : null}
                  </td>
                </tr>
                <tr className="border-b bg-muted/20 text-xs text-muted-foreground">
                  <td />
                  <td colSpan={11} className="px-2 py-1.5">
                    <span className="flex flex-wrap items-center gap-x-4 gap-y-1">
                      {a.devices.map((d) => (
                        <span key={d.component} className="flex items-center gap-1">
                          <SpriteComponentIcon component={d.component} />
                          {d.count} {componentLabel(d.component, d.count)}
                        </span>
                      ))}
                      {a.processorInputFormat ? <span>Format {a.processorInputFormat}</span> : null}
                      {a.processorGenlockFrequency ? <span>Genlock {a.processorGenlockFrequency}</span> : null}
                      {open[a.id] ? (
                        <span className="basis-full">
                          Systems: {a.systems.map((s) => `${s.name} (${s.projectName ?? '—'})`).join(', ')}
                          {a.deviceVersions.length ? ` · Versions: ${a.deviceVersions.map((v) => `${componentLabel(v.component)} ${v.product} ${[v.software, v.firmware].filter(Boolean).join('/')}`).join(', ')}` : ''}
                        </span>
                      ) : null}
                    </span>
                  </td>
                </tr>
              </Fragment>
            ))}
          </tbody>
        </table>
      </TooltipHost>
      {/* with the last rows: under the first ones it would jump down once the rest render */}
      {rows.length < allRows.length ? null : <Pager page={page} pageCount={pageCount} pageSize={pageSize} total={total} noun={total === 1 ? 'agent' : 'agents'} />}
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
