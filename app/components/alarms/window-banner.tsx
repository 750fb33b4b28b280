import { useRevalidator } from '@remix-run/react'
import { Megaphone, Wrench } from 'lucide-react'
import { useEffect } from 'react'
import type { activeWindows } from '~/domain/alarms/windows.server'
import { cn } from '~/utils/cn'

type Active = Omit<Awaited<ReturnType<typeof activeWindows>>, 'changesAt'>[number][]

/** The project pages' banner while a maintenance or show window is in progress (this project's or a parent's). */
export function WindowBanner({ windows, changesAt }: { windows: Active; changesAt: string | null }) {
  const revalidator = useRevalidator()
  // appears when a window starts and goes when it ends, on a page left open (setTimeout caps at ~24.8 days)
  useEffect(() => {
    if (!changesAt) return
    const wait = Math.min(Math.max(new Date(changesAt).getTime() - Date.now(), 0) + 1_000, 2 ** 31 - 1)
    const timer = setTimeout(() => revalidator.revalidate(), wait)
    return () => clearTimeout(timer)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the revalidator object changes on every render
  }, [changesAt])
  if (windows.length === 0) return null
  return (
    <div className="mb-3 flex flex-col gap-1.5">
      {windows.map((w) => {
        const maintenance = w.kind === 'maintenance'
        const Icon = maintenance ? Wrench : Megaphone
        return (
          <div
            key={w.id}
            role="status"
            className={cn('flex flex-wrap items-center gap-x-2 gap-y-0.5 rounded-md border px-3 py-2 text-sm', maintenance ? 'border-amber-300 bg-amber-50 text-amber-900' : 'border-violet-300 bg-violet-50 text-violet-900')}
          >
            <Icon className="size-4 shrink-0" aria-hidden />
            <span className="font-semibold">
              {maintenance ? 'Maintenance window' : 'Show window'} until {w.untilText}
            </span>
            {w.name ? <span>· {w.name}</span> : null}
            <span className="text-xs opacity-80">
              ({w.timeZone}) {maintenance ? '· notifications are muted' : '· chosen alerts notify at once'}
            </span>
          </div>
        )
      })}
    </div>
  )
}
