/** Usage periods (spec 01 section 9). Every boundary is in UTC, whatever the viewer's time zone. */
export const USAGE_PERIODS = {
  monthly: { counts: [3, 6, 12, 18, 24], defaultCount: 3 },
  daily: { counts: [7, 14, 30, 60, 90], defaultCount: 7 },
  hourly: { counts: [12, 24, 48, 72, 96], defaultCount: 12 },
} as const
export type UsagePeriod = keyof typeof USAGE_PERIODS
export const USAGE_PAGE_SIZE = 15

/** Calls shown with 'Show extra info', in the spec's order. */
export const USAGE_EXTRA_CALLS = ['ping', 'updateClientState', 'getClientConfig', 'setClientConfig', 'getTunnelConfig', 'createApplication'] as const

/** Start of the UTC period holding `date`. */
export function periodStart(period: UsagePeriod, date: Date): Date {
  const d = new Date(date.getTime())
  if (period === 'monthly') return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1))
  if (period === 'daily') return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()))
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours()))
}

/** Start of the period `offset` periods after the one starting at `start` (negative = earlier). */
export function shiftPeriod(period: UsagePeriod, start: Date, offset: number): Date {
  if (period === 'monthly') return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + offset, 1))
  return new Date(start.getTime() + offset * (period === 'daily' ? 86_400_000 : 3_600_000))
}

/** The last `count` periods up to the one holding `now`, newest first. */
export function recentPeriods(period: UsagePeriod, count: number, now: Date): Date[] {
  const current = periodStart(period, now)
  return Array.from({ length: count }, (_, i) => shiftPeriod(period, current, -i))
}

/** '2026-11' / '2026-11-24' / '2026-11-24 13:00' (UTC). */
export function periodLabel(period: UsagePeriod, start: Date | string): string {
  const iso = new Date(start).toISOString()
  if (period === 'monthly') return iso.slice(0, 7)
  if (period === 'daily') return iso.slice(0, 10)
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`
}
