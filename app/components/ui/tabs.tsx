import { NavLink } from '@remix-run/react'
import { cn } from '~/utils/cn'

/** Tabs mirrored in the URL: each tab is a link, the active one is underlined. */
export function LinkTabs({ tabs, className }: { tabs: { to: string; label: string; end?: boolean }[]; className?: string }) {
  return (
    // scrolls sideways on a phone; the base line is a shadow so the active tab's underline is not clipped
    <nav className={cn('flex gap-1 relative overflow-x-auto shadow-[inset_0_-1px_0_hsl(var(--border))]', className)} role="tablist">
      {tabs.map((t) => (
        <NavLink
          key={t.to}
          to={t.to}
          end={t.end}
          role="tab"
          prefetch="intent"
          className={({ isActive }) =>
            cn(
              'shrink-0 whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium transition-colors',
              isActive ? 'border-primary text-foreground' : 'border-transparent text-muted-foreground hover:text-foreground',
            )
          }
        >
          {t.label}
        </NavLink>
      ))}
    </nav>
  )
}
