import { type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { ComponentIconSprite } from '~/components/fleet/component-icon-sprite'
import { DeviceTree } from '~/components/fleet/device-tree'
import { ConnectionIcon } from '~/components/fleet/status'
import { EmptyState } from '~/components/page-header'
import { Card, CardContent, CardHeader, CardTitle } from '~/components/ui/card'
import { Pager, pageParam } from '~/components/ui/pager'
import { useRowsOnServer } from '~/components/ui/rows-on-server'
import { projectDevices } from '~/domain/fleet/project.server'
import { useOrganization } from '~/routes/_app.organization.$organizationId'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'
import { useLiveRevalidate } from '~/utils/use-live-revalidate'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  return domainCall(() => projectDevices(actor, params.organizationId!, params.projectId!, { page: pageParam(request.url) }))
}

/**
 * Cards the server renders of a page of 25 (decision 107); the browser renders the rest once
 * hydrated. A card is ~110 px and they start ~180 px down, so 8 fill a 1080p window (950 px).
 */
const SYSTEM_CARDS_ON_SERVER = 8

/** Devices tab: each system's devices as a tree grouped by parent. */
export default function ProjectDevices() {
  const { systems: allSystems, page, pageCount, pageSize, total } = useLoaderData<typeof loader>()
  const { organization } = useOrganization()
  useLiveRevalidate(organization.id, ['agent', 'system', 'project'])
  // a system's card is a device tree
  const systems = useRowsOnServer(allSystems, SYSTEM_CARDS_ON_SERVER)
  if (!systems.length) return <EmptyState title="No devices" text="No system of this project (or its sub-projects) is reporting yet." />
  return (
    <div className="flex flex-col gap-3">
      <Pager page={page} pageCount={pageCount} pageSize={pageSize} total={total} noun={total === 1 ? 'system' : 'systems'} />
      {systems.map((s) => (
        <Card key={s.id}>
          <CardHeader className="flex-row items-center gap-2 py-2">
            <ConnectionIcon connected={s.agent.isConnected} />
            <CardTitle>{s.name}</CardTitle>
            <span className="text-xs text-muted-foreground">
              <Link to={`/organization/${organization.id}/agents/${s.agent.id}`} className="hover:underline">
                {s.agent.name}
              </Link>
              {s.projectName ? ` · ${s.projectName}` : ''}
            </span>
          </CardHeader>
          <CardContent>
            <DeviceTree nodes={s.tree} />
          </CardContent>
        </Card>
      ))}
      {/* the bottom pager comes with the last cards: under the first ones it would jump down once the rest render */}
      {pageCount > 1 && systems.length === allSystems.length ? <Pager page={page} pageCount={pageCount} pageSize={pageSize} total={total} noun={total === 1 ? 'system' : 'systems'} /> : null}
      <ComponentIconSprite />
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
