import { Link } from '@remix-run/react'
import type { SystemTag } from '~/domain/fleet/project-systems.server'
import { timeAgo } from '~/utils/format-time'
import { Tooltip } from '../ui/tooltip'
import { ConnectionIcon } from './status'

/**
 * System(s) tags of one project row: a connected, disconnected or unknown icon per system; hover
 * shows the agent name and last seen, or 'Not connected'. Each tag links to the agent's row on the
 * project's agents tab (/projects/{projectId}/agents#{agentId}).
 */
export function SystemTags({ organizationId, projectId, tags }: { organizationId: string; projectId: string; tags: SystemTag[] }) {
  if (!tags.length) return <span className="text-muted-foreground">—</span>
  return (
    <span className="flex flex-wrap gap-1">
      {tags.map((t) => (
        <Tooltip key={t.id} content={`${t.agentName} · ${t.state === 'connected' && t.lastSeen ? `last seen ${timeAgo(t.lastSeen)}` : 'Not connected'}`}>
          <Link
            to={`/organization/${organizationId}/projects/${projectId}/agents#${t.agentId}`}
            className="inline-flex items-center gap-1 rounded border bg-card px-1.5 py-0.5 text-xs hover:bg-accent"
          >
            <ConnectionIcon connected={t.state === 'connected'} unknown={t.state === 'unknown'} className="size-3.5" />
            {t.name}
          </Link>
        </Tooltip>
      ))}
    </span>
  )
}
