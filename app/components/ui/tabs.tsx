import { NavLink, useLocation } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { cn } from '~/utils/cn'

/** Tabs mirrored in the URL: each tab is a link, the active one is underlined. */
export function LinkTabs({ tabs, className }: { tabs: { to: string; label: string; end?: boolean }[]; className?: string }) {
  const nav = useRef<HTMLElement>(null)
  const { pathname } = useLocation()
  // on a phone the strip scrolls sideways: keep the active tab fully visible (a tab opened by URL
  // may sit past the right edge); only the strip scrolls, never the page
  useEffect(() => {
    const strip = nav.current
    const active = strip?.querySelector<HTMLElement>('[aria-current="page"]')
    if (!strip || !active) return
    const left = active.offsetLeft // the strip is `relative`, so this is measured from its edge
    if (left < strip.scrollLeft) strip.scrollLeft = left
    else if (left + active.offsetWidth > strip.scrollLeft + strip.clientWidth) strip.scrollLeft = left + active.offsetWidth - strip.clientWidth
  }, [pathname])
  return (
    // scrolls sideways on a phone; the base line is a shadow so the active tab's underline is not clipped
    <nav ref={nav} className={cn('flex gap-1 relative overflow-x-auto shadow-[inset_0_-1px_0_hsl(var(--border))]', className)} role="tablist">
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
