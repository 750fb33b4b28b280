import { type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { ChartCard, SEVERITY_CHART_COLORS } from '~/components/fleet/chart-card'
import { Card, CardContent, CardHeader, CardTitle } from '~/components/ui/card'
import { componentLabel, type ChartDatum } from '~/domain/fleet/labels'
import { projectOverview } from '~/domain/fleet/project.server'
import { useOrganization } from '~/routes/_app.organization.$organizationId'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'
import { useLiveRevalidate } from '~/utils/use-live-revalidate'

/** Component codes are shown by their labels (receiver is shown as 'Tile', spec 02 section 3). */
const withComponentLabels = (data: ChartDatum[]) => data.map((d) => ({ ...d, key: componentLabel(d.key) }))

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  return domainCall(() => projectOverview(actor, params.organizationId!, params.projectId!))
}

/** Issues By Type: 50 px per bar (spec 02 section 2). */
const TYPE_BAR_PX = 50

function StatCard({ title, value, detail }: { title: string; value: React.ReactNode; detail: React.ReactNode }) {
  return (
    <Card>
      <CardContent className="flex flex-col gap-1 py-3">
        <span className="text-xs font-medium text-muted-foreground">{title}</span>
        <span className="text-2xl font-semibold tabular-nums">{value}</span>
        <span className="text-xs text-muted-foreground">{detail}</span>
      </CardContent>
    </Card>
  )
}

export default function ProjectOverview() {
  const data = useLoaderData<typeof loader>()
  const { organization } = useOrganization()
  useLiveRevalidate(organization.id, ['agent', 'system', 'issue', 'project'])
  const { cards, charts, extraInfo } = data
  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-4 md:grid-cols-3">
        <StatCard
          title="Systems"
          value={
            <span aria-label="Systems connected">
              {cards.systems.connected}
              <span className="text-base font-normal text-muted-foreground"> / {cards.systems.total} connected</span>
            </span>
          }
          detail={<Link to="../agents" relative="path" className="text-primary hover:underline">View agents</Link>}
        />
        <StatCard
          title="Issues"
          value={<span aria-label="Issues reported">{cards.issues.reported} reported</span>}
          detail={`${cards.issues.alerts} alert(s) · ${cards.issues.deviations} deviation(s)`}
        />
        <StatCard
          title="Devices"
          value={cards.devices.connected === null ? 'Unknown' : <span>{cards.devices.connected} connected</span>}
          detail={`${cards.devices.total} total`}
        />
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <ChartCard title="Issues by Severity" data={charts.issuesBySeverity} colors={SEVERITY_CHART_COLORS} />
        <ChartCard title="Issues by Type" data={charts.issuesByType} layout="vertical" barSize={TYPE_BAR_PX} />
        <ChartCard title="Issues By Component" data={withComponentLabels(charts.issuesByComponent)} />
        <ChartCard title="Devices By Component" data={withComponentLabels(charts.devicesByComponent)} />
        <ChartCard title="Devices by Product" data={charts.devicesByProduct} layout="vertical" barSize={34} />
        <ChartCard title="Devices by Version Software" data={charts.devicesByVersionSoftware} layout="vertical" barSize={34} />
        <ChartCard title="Devices by Version Firmware" data={charts.devicesByVersionFirmware} layout="vertical" barSize={34} />
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Extra Info</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-6 md:grid-cols-2">
          <table className="text-[13px]" aria-label="Issue history by day">
            <thead className="text-left text-xs text-muted-foreground">
              <tr>
                <th className="pb-1 font-medium">Date</th>
                <th className="pb-1 text-right font-medium">Count</th>
              </tr>
            </thead>
            <tbody>
              {extraInfo.history.length ? (
                extraInfo.history.map((h) => (
                  <tr key={h.date} className="border-t">
                    <td className="py-1">{h.date}</td>
                    <td className="py-1 text-right font-mono text-xs">{h.count}</td>
                  </tr>
                ))
              ) : (
                <tr>
                  <td colSpan={2} className="py-2 text-muted-foreground">No data available</td>
                </tr>
              )}
            </tbody>
          </table>
          <table className="text-[13px]" aria-label="Issues by project">
            <thead className="text-left text-xs text-muted-foreground">
              <tr>
                <th className="pb-1 font-medium">Project</th>
                <th className="pb-1 font-medium">Id</th>
                <th className="pb-1 text-right font-medium">Count</th>
              </tr>
            </thead>
            <tbody>
              {extraInfo.projects.length ? (
                extraInfo.projects.map((p) => (
                  <tr key={p.id} className="border-t">
                    <td className="py-1">{p.name}</td>
                    <td className="py-1 font-mono text-xs text-muted-foreground">{p.id}</td>
                    <td className="py-1 text-right font-mono text-xs">{p.count}</td>
                  </tr>
                ))
              ) : (
                <tr>
                  <td colSpan={3} className="py-2 text-muted-foreground">No issues reported</td>
                </tr>
              )}
            </tbody>
          </table>
        </CardContent>
      </Card>
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
