import { Link, useLocation } from '@remix-run/react'
import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from 'lucide-react'
import { cn } from '~/utils/cn'
import { formatCount } from '~/utils/format-time'

/**
 * Server-side paging of a long list: "{from}-{to} of {total} {noun}" and first/previous/next/last
 * links that keep the other search parameters (`param` names the page parameter).
 */
export function Pager({ page, pageCount, pageSize, total, noun, param = 'page', className }: { page: number; pageCount: number; pageSize: number; total: number; noun: string; param?: string; className?: string }) {
  const location = useLocation()
  if (total === 0) return null
  const href = (p: number) => {
    const next = new URLSearchParams(location.search)
    if (p <= 1) next.delete(param)
    else next.set(param, String(p))
    next.delete('focus')
    const q = next.toString()
    return q ? `?${q}` : location.pathname
  }
  const from = (page - 1) * pageSize + 1
  const to = Math.min(total, page * pageSize)
  const buttons = [
    { label: 'First page', Icon: ChevronsLeft, to: 1, disabled: page <= 1 },
    { label: 'Previous page', Icon: ChevronLeft, to: page - 1, disabled: page <= 1 },
    { label: 'Next page', Icon: ChevronRight, to: page + 1, disabled: page >= pageCount },
    { label: 'Last page', Icon: ChevronsRight, to: pageCount, disabled: page >= pageCount },
  ]
  return (
    <div className={cn('flex flex-wrap items-center justify-between gap-3 text-xs text-muted-foreground', className)}>
      <span className="tabular-nums">
        {formatCount(from)}–{formatCount(to)} of {formatCount(total)} {noun}
      </span>
      {pageCount > 1 ? (
        <span className="flex items-center gap-1">
          <span className="mr-2 tabular-nums">
            Page {page} of {pageCount}
          </span>
          {buttons.map(({ label, Icon, to: target, disabled }) =>
            disabled ? (
              <span key={label} aria-label={label} aria-disabled="true" className="inline-flex size-7 items-center justify-center rounded-md border opacity-40">
                <Icon className="size-4" />
              </span>
            ) : (
              <Link key={label} to={href(target)} preventScrollReset aria-label={label} className="inline-flex size-7 items-center justify-center rounded-md border bg-card hover:bg-accent">
                <Icon className="size-4" />
              </Link>
            ),
          )}
        </span>
      ) : null}
    </div>
  )
}

/** Page number from a URL's `param` (1 when missing or invalid), clamped to the page count later. */
export function pageParam(url: string | URL, param = 'page') {
  const n = Number(new URL(url).searchParams.get(param))
  return Number.isInteger(n) && n >= 1 ? Math.min(n, 1_000_000) : 1
}
