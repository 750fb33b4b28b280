import { BellOff } from 'lucide-react'
import { Badge } from '~/components/ui/badge'

/** Badges for where an issue stands: Active / Cleared, Acknowledged, Muted (maintenance window). */
export function IssueStateBadges({ issue }: { issue: { isActive: boolean; acknowledged: boolean; muted: boolean } }) {
  return (
    <span className="inline-flex flex-wrap gap-1">
      {issue.isActive ? <Badge variant="destructive">Active</Badge> : <Badge variant="secondary">Cleared</Badge>}
      {issue.acknowledged ? <Badge variant="default">Acknowledged</Badge> : null}
      {issue.muted ? (
        <Badge variant="outline" title="A maintenance window mutes its notifications">
          <BellOff className="size-3" aria-hidden />
          Muted
        </Badge>
      ) : null}
    </span>
  )
}

