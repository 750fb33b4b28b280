import { Link } from '@remix-run/react'
import type { ProjectSystemTags, SystemTag } from '~/domain/fleet/project-systems.server'
import { formatCount, timeAgo } from '~/utils/format-time'
import { IconSprite, SpriteIcon } from '../ui/icon-sprite'
import { CONNECTION_STATES } from './status'

const PREFIX = 'pf-system-tag'

/**
 * The three connection icons once per page: the projects list shows up to six tags per project,
 * and each tag repeated its icon's paths (~240 icons, a third of the page's HTML).
 */
export function SystemTagIconSprite() {
  return <IconSprite prefix={PREFIX} icons={{ connected: CONNECTION_STATES.connected.Icon, disconnected: CONNECTION_STATES.disconnected.Icon, unknown: CONNECTION_STATES.unknown.Icon }} />
}

/** A tag's connection icon from <SystemTagIconSprite> (which must be on the page), looking like ConnectionIcon. */
function TagIcon({ state }: { state: SystemTag['state'] }) {
  return <SpriteIcon prefix={PREFIX} name={state} label={CONNECTION_STATES[state].label} className={`lucide size-3.5 ${CONNECTION_STATES[state].color}`} />
}

/**
 * System(s) tags of one project row: a connected, disconnected or unknown icon per system; hover
 * shows the agent name and last seen, or 'Not connected' (systemTagTip, through the table's
 * TooltipHost). Each tag links to the agent's row on the
 * project's agents tab. A project with more systems than tags shows counts and a link to them all.
 */
export function SystemTags({ organizationId, projectId, systems }: { organizationId: string; projectId: string; systems: ProjectSystemTags }) {
  const { tags, total, connected, unknown } = systems
  if (!tags.length) return <span className="text-muted-foreground">—</span>
  const agentsTab = `/organization/${organizationId}/projects/${projectId}/agents`
  const more = total - tags.length
  return (
    <span className="flex flex-wrap items-center gap-1">
      {tags.map((t) => (
        <Link
          key={t.id}
          to={`${agentsTab}?focus=${encodeURIComponent(t.agentId)}#${t.agentId}`}
          data-tip={t.agentName}
          data-tip-seen={t.state === 'connected' && t.lastSeen ? t.lastSeen : ''}
          className="inline-flex items-center gap-1 rounded border bg-card px-1.5 py-0.5 text-xs hover:bg-accent"
        >
          <TagIcon state={t.state} />
          {t.name}
        </Link>
      ))}
      {more > 0 ? (
        <Link to={agentsTab} className="px-1 text-xs text-muted-foreground hover:underline" title={`${formatCount(total)} systems: ${formatCount(connected)} connected, ${formatCount(total - connected - unknown)} disconnected, ${formatCount(unknown)} never reported`}>
          +{formatCount(more)} more · {formatCount(connected)} of {formatCount(total)} connected
        </Link>
      ) : null}
    </span>
  )
}

/** A tag's tooltip text, composed when shown (so 'last seen' is as of now): agent name · last seen, or 'Not connected'. */
export function systemTagTip(element: HTMLElement): string {
  const { tip = '', tipSeen } = element.dataset
  if (tipSeen === undefined) return tip
  return `${tip} · ${tipSeen ? `last seen ${timeAgo(tipSeen)}` : 'Not connected'}`
}
