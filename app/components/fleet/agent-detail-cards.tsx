import { type ReactNode } from 'react'
import { LastSeen } from '~/components/fleet/last-seen'
import { RemoteConnect, SeverityBadge } from '~/components/fleet/status'
import { SystemAssignSelect } from '~/components/fleet/system-assign'
import { Card, CardContent, CardHeader, CardTitle } from '~/components/ui/card'
import { componentLabel } from '~/domain/fleet/labels'
import type { AgentDetailPageData as Data } from '~/utils/agent-detail-page.server'

/** One label/value line of the agent detail page's cards; an empty value shows a dash. */
export function Row({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-4 border-b border-dashed py-1.5 text-[13px] last:border-0">
      <dt className="shrink-0 text-muted-foreground">{label}</dt>
      <dd className="min-w-0 truncate text-right font-medium">{children ?? <span className="font-normal text-muted-foreground">—</span>}</dd>
    </div>
  )
}

/** Connection, remote connect and the systems still to assign. */
export function StatusCard({ data, organizationId }: { data: Data; organizationId: string }) {
  const { agent, systems } = data
  const unassigned = systems.filter((s) => !s.projectId)
  return (
    <Card>
      <CardHeader>
        <CardTitle>Status</CardTitle>
      </CardHeader>
      <CardContent>
        <dl>
          <Row label="State">
            <span className={agent.isConnected ? 'text-emerald-700' : 'text-red-600'}>{agent.isConnected ? 'Connected' : 'Disconnected'}</span>
          </Row>
          <Row label="Remote Connect">
            <RemoteConnect organizationId={organizationId} agent={agent} canConnect={data.capabilities.canConnect} />
          </Row>
          <Row label="Last Connected">
            <LastSeen value={agent.lastSeen} />
          </Row>
          <Row label="Last IP">{agent.lastIp ? <span className="font-mono text-xs">{agent.lastIp}</span> : null}</Row>
          <Row label="System Assignments">
            {systems.length - unassigned.length}/{systems.length}
          </Row>
        </dl>
        <div className="mt-2 flex flex-col gap-1.5">
          {unassigned.length ? (
            unassigned.map((s) => (
              <div key={s.id} className="flex items-center justify-between gap-2 text-xs">
                <span className="font-medium">System {s.key}</span>
                <SystemAssignSelect organizationId={organizationId} agentId={agent.id} system={s} projects={data.assignableProjects} canUnassign={data.capabilities.canUnassign} disabled={!data.capabilities.canAssign} />
              </div>
            ))
          ) : (
            <p className="text-xs text-muted-foreground">All systems assigned.</p>
          )}
        </div>
      </CardContent>
    </Card>
  )
}

/** Issue counts, health score, processor figures and device versions. */
export function InfoCard({ agent }: { agent: Data['agent'] }) {
  const versions = agent.deviceVersions
  return (
    <Card>
      <CardHeader>
        <CardTitle>Info</CardTitle>
      </CardHeader>
      <CardContent>
        <dl>
          <Row label="Issues">
            {agent.issuesCount ? (
              <span className="flex justify-end gap-1">
                {agent.alertsCount ? <SeverityBadge severity={agent.alertsSeverity} count={agent.alertsCount} /> : null}
                {agent.deviationsCount ? <SeverityBadge severity={agent.deviationsSeverity} count={agent.deviationsCount} /> : null}
              </span>
            ) : (
              <span className="text-emerald-700">None</span>
            )}
          </Row>
          <Row label="Health Score">
            <span className="font-mono" title="Alert count ^ (6 - worst severity), plus the same for deviations">
              {agent.weightedAlertsScore}
            </span>
          </Row>
          <Row label="Tiles">{agent.processorTiles ?? (agent.tiles || null)}</Row>
          <Row label="Processor Input">{agent.processorInput}</Row>
          <Row label="Input Format">{agent.processorInputFormat}</Row>
          <Row label="Genlock Frequency">{agent.processorGenlockFrequency}</Row>
          <Row label="Packet Loss">{agent.packetLoss}</Row>
          <Row label="Serial">{agent.serial ? <span className="font-mono text-xs">{agent.serial}</span> : null}</Row>
          {versions.map((v) => (
            <Row
              key={`${v.component}-${v.product}-${v.software}-${v.firmware}`}
              label={
                <>
                  {componentLabel(v.component)} {[v.software && 'Software', v.firmware && 'Firmware'].filter(Boolean).join(' / ') || 'Version'}
                  {/* the product tells apart two devices of one kind (e.g. two switch models) */}
                  {v.product ? <span className="block text-[11px] leading-tight">{v.product}</span> : null}
                </>
              }
            >
              <span className="font-mono text-xs" title={v.product}>
                {[v.software, v.firmware].filter(Boolean).join(' / ') || '—'}
                {v.count > 1 ? <span className="ml-1 text-muted-foreground">× {v.count}</span> : null}
              </span>
            </Row>
          ))}
        </dl>
      </CardContent>
    </Card>
  )
}
