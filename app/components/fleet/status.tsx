import { Link, useLocation } from '@remix-run/react'
import { CircleCheck, CircleHelp, CircleX, MonitorUp } from 'lucide-react'
import { severityColor, severityLabel } from '~/domain/agents/derived'
import { cn } from '~/utils/cn'
import { plainIcon } from '../shell/plain-icon'
import { Button } from '../ui/button'
import { Tooltip } from '../ui/tooltip'
import { formatCount } from '~/utils/format-time'

/** The connection states' icons, labels and colours (ConnectionIcon, the projects list's system tags). */
export const CONNECTION_STATES = {
  connected: { Icon: CircleCheck, label: 'Connected', color: 'text-emerald-600' },
  disconnected: { Icon: CircleX, label: 'Disconnected', color: 'text-red-500' },
  unknown: { Icon: CircleHelp, label: 'Unknown', color: 'text-slate-400' },
} as const

/** Connected / disconnected / unknown (never seen) icon. */
export function ConnectionIcon({ connected, unknown, className }: { connected: boolean; unknown?: boolean; className?: string }) {
  const { Icon, label, color } = CONNECTION_STATES[unknown ? 'unknown' : connected ? 'connected' : 'disconnected']
  // one cached plain <svg> per state: a table draws one per row
  return plainIcon(Icon, className ? cn('size-4', color, className) : `size-4 ${color}`, label)
}

/** A severity pill: colour and label of the worst severity, with a count when given. */
export function SeverityBadge({ severity, count, className }: { severity: number; count?: number; className?: string }) {
  const color = severityColor(severity)
  return (
    <span className={cn('inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-[11px] font-medium', color.bg, color.text, className)}>
      <span className={cn('size-1.5 rounded-full', color.dot)} />
      {count !== undefined ? `${formatCount(count)} ` : null}
      {severityLabel(severity)}
    </span>
  )
}

/** Health: alerts and deviations with their worst severities, or 'OK'. */
export function HealthCell({ alertsCount, alertsSeverity, deviationsCount, deviationsSeverity }: { alertsCount: number; alertsSeverity: number; deviationsCount: number; deviationsSeverity: number }) {
  if (!alertsCount && !deviationsCount) return <span className="text-xs text-emerald-700">OK</span>
  return (
    <span className="flex flex-wrap gap-1">
      {alertsCount ? <SeverityBadge severity={alertsSeverity} count={alertsCount} /> : null}
      {deviationsCount ? (
        <Tooltip content="Deviations">
          <span>
            <SeverityBadge severity={deviationsSeverity} count={deviationsCount} className="border border-dashed border-current" />
          </span>
        </Tooltip>
      ) : null}
    </span>
  )
}

export const portalLink = (organizationId: string, agentId: string, close: string) => `/portal/${organizationId}/${agentId}?close=${encodeURIComponent(close)}`

/**
 * Remote connect (spec 02 section 4): a 'Connect' button only when the agent and its tunnel are
 * connected (and the viewer may connect); otherwise the remote connection state text.
 */
export function RemoteConnect({
  organizationId,
  agent,
  canConnect,
}: {
  organizationId: string
  agent: { id: string; isConnected: boolean; isTunnelConnected: boolean; remoteConnectionState: string; tunnelStatusMessage: string | null }
  canConnect: boolean
}) {
  const location = useLocation()
  if (agent.isConnected && agent.isTunnelConnected && canConnect) {
    return (
      <Button asChild size="sm" variant="outline" className="h-6 px-2 text-xs">
        <Link to={portalLink(organizationId, agent.id, location.pathname + location.search)} onClick={(e) => e.stopPropagation()}>
          <MonitorUp /> Connect
        </Link>
      </Button>
    )
  }
  const text = <span className="text-xs text-muted-foreground">{agent.remoteConnectionState}</span>
  return agent.tunnelStatusMessage ? (
    <Tooltip content={agent.tunnelStatusMessage}>
      <span className="cursor-help underline decoration-dotted underline-offset-2">{text}</span>
    </Tooltip>
  ) : (
    text
  )
}
