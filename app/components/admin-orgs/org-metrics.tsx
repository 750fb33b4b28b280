import { Braces, RefreshCw } from 'lucide-react'
import { useCallback, useEffect, useState, type ReactNode } from 'react'
import { toastError } from '~/components/inline-edit-field'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '~/components/ui/card'
import { DateTime } from '~/components/ui/date-time'
import { callApi } from '~/utils/api-client'
import { AdminTable, td } from './parts'

type Metrics = {
  computedAt: string
  projects: { projectId: string; name: string; agents: number; systems: number; alerts: number; deviations: number }[]
  systems: { systemId: string; name: string; agentName: string; projectName: string | null; devices: number; alerts: number; deviations: number }[]
  issues: { id: string; kind: string; key: string; component: string; severity: number; message: string; systemId: string; latestCount: number }[]
  devices: { component: string; count: number }[]
  deviceIssues: { agentId: string; systemId: string; componentLabel: string; count: number; issueCount: number; priorityIssueCount: number; issueBreakdown: Record<string, number> }[]
}

const SEVERITY: Record<number, string> = { 2: 'critical', 3: 'error', 4: 'warning', 5: 'notice', 6: 'info' }

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section>
      <h3 className="mb-1 text-sm font-semibold">{title}</h3>
      {children}
    </section>
  )
}

/** Projects tab (project metrics): aggregated fleet metrics, with a raw JSON toggle. */
export function OrgMetrics({ organizationId }: { organizationId: string }) {
  const [metrics, setMetrics] = useState<Metrics | null>(null)
  const [raw, setRaw] = useState(false)
  const [loading, setLoading] = useState(false)
  const reload = useCallback(async () => {
    setLoading(true)
    try {
      setMetrics(await callApi<Metrics>('admin/fetchOrgMetricsAggregated', { organizationId }))
    } catch (e) {
      toastError(e)
    } finally {
      setLoading(false)
    }
  }, [organizationId])
  useEffect(() => void reload(), [reload])
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle>
          Metrics {metrics ? <span className="ml-2 text-xs font-normal text-muted-foreground">as of <DateTime value={metrics.computedAt} seconds /></span> : null}
        </CardTitle>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" aria-pressed={raw} onClick={() => setRaw(!raw)}>
            <Braces /> {raw ? 'Tables' : 'Raw JSON'}
          </Button>
          <Button variant="outline" size="sm" onClick={() => void reload()} disabled={loading}>
            <RefreshCw className={loading ? 'animate-spin' : ''} /> Reload
          </Button>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        {!metrics ? (
          <p className="text-sm text-muted-foreground">Loading…</p>
        ) : raw ? (
          <pre className="max-h-[32rem] overflow-auto rounded-md bg-muted p-3 text-xs" data-testid="metrics-json">
            {JSON.stringify(metrics, null, 2)}
          </pre>
        ) : (
          <>
            <Section title="Projects">
              <AdminTable head={['Project', 'Agents', 'Systems', 'Alerts', 'Deviations']} empty={metrics.projects.length === 0} testId="metrics-projects">
                {metrics.projects.map((p) => (
                  <tr key={p.projectId} className="border-b last:border-0">
                    <td className={`${td} font-medium`}>{p.name}</td>
                    <td className={td}>{p.agents}</td>
                    <td className={td}>{p.systems}</td>
                    <td className={td}>{p.alerts}</td>
                    <td className={td}>{p.deviations}</td>
                  </tr>
                ))}
              </AdminTable>
            </Section>
            <Section title="Systems">
              <AdminTable head={['System', 'Agent', 'Project', 'Devices', 'Alerts', 'Deviations']} empty={metrics.systems.length === 0}>
                {metrics.systems.map((s) => (
                  <tr key={`${s.agentName}-${s.systemId}`} className="border-b last:border-0">
                    <td className={td}>
                      {s.name} <span className="font-mono text-xs text-muted-foreground">{s.systemId}</span>
                    </td>
                    <td className={td}>{s.agentName}</td>
                    <td className={td}>{s.projectName ?? <span className="text-muted-foreground">unassigned</span>}</td>
                    <td className={td}>{s.devices}</td>
                    <td className={td}>{s.alerts}</td>
                    <td className={td}>{s.deviations}</td>
                  </tr>
                ))}
              </AdminTable>
            </Section>
            <Section title="Issues">
              <AdminTable head={['Severity', 'Kind', 'Component', 'Message', 'System', 'Count']} empty={metrics.issues.length === 0}>
                {metrics.issues.map((i) => (
                  <tr key={i.id} className="border-b last:border-0">
                    <td className={td}>{SEVERITY[i.severity] ?? i.severity}</td>
                    <td className={td}>{i.kind}</td>
                    <td className={td}>{i.component}</td>
                    <td className={td}>{i.message || i.key}</td>
                    <td className={`${td} font-mono text-xs`}>{i.systemId}</td>
                    <td className={td}>{i.latestCount}</td>
                  </tr>
                ))}
              </AdminTable>
            </Section>
            <Section title="Devices">
              <AdminTable head={['Component', 'Count']} empty={metrics.devices.length === 0}>
                {metrics.devices.map((d) => (
                  <tr key={d.component} className="border-b last:border-0">
                    <td className={td}>{d.component}</td>
                    <td className={td}>{d.count}</td>
                  </tr>
                ))}
              </AdminTable>
            </Section>
            <Section title="Device Issues">
              <AdminTable head={['System', 'Component', 'Devices', 'Issues', 'Priority issues', 'Breakdown']} empty={metrics.deviceIssues.length === 0}>
                {metrics.deviceIssues.map((d) => (
                  <tr key={`${d.agentId}-${d.systemId}-${d.componentLabel}`} className="border-b last:border-0">
                    <td className={`${td} font-mono text-xs`}>{d.systemId}</td>
                    <td className={td}>{d.componentLabel}</td>
                    <td className={td}>{d.count}</td>
                    <td className={td}>{d.issueCount}</td>
                    <td className={td}>{d.priorityIssueCount}</td>
                    <td className={`${td} text-xs`}>{Object.entries(d.issueBreakdown).map(([k, v]) => `${k}: ${v}`).join(', ') || '—'}</td>
                  </tr>
                ))}
              </AdminTable>
            </Section>
          </>
        )}
      </CardContent>
    </Card>
  )
}
