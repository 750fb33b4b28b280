import { ChevronRight, GitBranch } from 'lucide-react'
import { SeverityBadge } from '~/components/fleet/status'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { componentLabel } from '~/domain/fleet/labels'
import type { RootCauseGroupView } from '~/domain/rootcause/views.server'

/**
 * Root causes (docs/root-cause.md): one row per failing upstream device with "explains N issues
 * on M devices", expandable to the downstream issues it explains. Nothing is shown when no
 * upstream device fails.
 */
export function RootCauseCard({ groups, showSystem = true }: { groups: RootCauseGroupView[]; showSystem?: boolean }) {
  if (!groups.length) return null
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <GitBranch className="size-4 text-muted-foreground" /> Root Causes
        </CardTitle>
        <CardDescription>Upstream failures and the downstream issues they explain.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-2" aria-label="Root causes">
        {groups.map((g) => (
          <details key={g.cause.id} className="group rounded border" data-testid="root-cause">
            <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-[13px] [&::-webkit-details-marker]:hidden">
              <ChevronRight className="size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-90" />
              <SeverityBadge severity={g.severity} />
              <span className="text-muted-foreground">{componentLabel(g.cause.component)}</span>
              <span className="min-w-0 flex-1 font-medium">{g.cause.message}</span>
              <span className="rounded bg-amber-100 px-1.5 py-0.5 text-[11px] font-medium text-amber-900">{g.text}</span>
              {showSystem ? (
                <span className="whitespace-nowrap text-xs text-muted-foreground">
                  {g.cause.system} · {g.cause.agent}
                </span>
              ) : null}
            </summary>
            <table className="w-full border-t text-[13px]" aria-label={`Explained by ${g.cause.message}`}>
              <tbody>
                {g.explained.map((i) => (
                  <tr key={i.id} className="border-b last:border-0">
                    <td className="w-12 py-1.5 pl-9 pr-3 text-right tabular-nums">{i.count}</td>
                    <td className="py-1.5 pr-3">
                      <SeverityBadge severity={i.severity} />
                    </td>
                    <td className="py-1.5 pr-3 text-muted-foreground">{componentLabel(i.component)}</td>
                    <td className="py-1.5 pr-3">{i.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        ))}
      </CardContent>
    </Card>
  )
}
