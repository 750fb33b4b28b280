import { Link, useMatches, type UIMatch } from '@remix-run/react'
import { ChevronRight, Home } from 'lucide-react'
import { plainIcon } from './plain-icon'

export type Crumb = { label: string; to: string }
/** Routes add crumbs through `handle.breadcrumb`; the project page adds its whole parent chain. */
export type BreadcrumbHandle = { breadcrumb?: (match: UIMatch<unknown, unknown>) => Crumb | Crumb[] | null }

export function Breadcrumbs() {
  const matches = useMatches() as UIMatch<unknown, BreadcrumbHandle | undefined>[]
  const crumbs = matches.flatMap((m) => {
    const c = m.handle?.breadcrumb?.(m)
    return c ? (Array.isArray(c) ? c : [c]) : []
  })
  return (
    <nav aria-label="Breadcrumb" className="flex min-w-0 items-center gap-1 text-sm text-muted-foreground">
      <Link to="/" aria-label="Home" className="rounded p-1 hover:bg-accent hover:text-foreground">
        {plainIcon(Home, 'size-4')}
      </Link>
      {crumbs.map((c, i) => (
        <span key={`${c.to}-${i}`} className="flex min-w-0 items-center gap-1">
          {plainIcon(ChevronRight, 'size-3.5 shrink-0')}
          {i === crumbs.length - 1 ? (
            <span aria-current="page" className="truncate font-medium text-foreground">
              {c.label}
            </span>
          ) : (
            <Link to={c.to} className="truncate hover:text-foreground hover:underline">
              {c.label}
            </Link>
          )}
        </span>
      ))}
    </nav>
  )
}
