import type { ShouldRevalidateFunctionArgs } from '@remix-run/react'
import type { ChangeEvent } from '~/domain/events/bus.server'

type Kind = ChangeEvent['kind']

/**
 * A tab revalidates at most once per this window for live changes: the first change after a quiet
 * spell reloads at once, later ones within the window are merged into one reload at its end. A
 * fleet reporting every 10 s would otherwise keep every open page reloading without pause.
 */
export const LIVE_REVALIDATE_MIN_MS = 5_000

/**
 * What the layout loaders show, by the change kinds that can alter it. A live revalidation skips a
 * layout none of whose kinds changed (agent reports never touch the sidebar or the session); page
 * routes, not listed, always reload.
 */
export const LAYOUT_LIVE_KINDS: Record<string, Kind[]> = {
  root: ['site', 'user'],
  'routes/_app': ['organization', 'member', 'role', 'user'],
  'routes/_app.organization.$organizationId': ['organization', 'member', 'role'],
  'routes/_app.organization.$organizationId.projects.$projectId': ['project', 'member', 'role', 'organization'],
}

/** Of the matched route ids, those a live change of `kinds` must reload (what the client sends as `_routes`). */
export function liveRevalidateRoutes(kinds: Kind[], routeIds: string[]) {
  return routeIds.filter((id) => !LAYOUT_LIVE_KINDS[id] || LAYOUT_LIVE_KINDS[id].some((k) => kinds.includes(k)))
}

/** Kinds of the live revalidation being started (null: any other revalidation or navigation). */
let liveKinds: Kind[] | null = null

/** Marks the revalidation started by `start` (synchronously) as a live one for `kinds`; 'resync' reloads everything. */
export function startLiveRevalidation(kinds: Kind[] | 'resync', start: () => void) {
  liveKinds = kinds === 'resync' ? null : kinds
  try {
    start()
  } finally {
    // the router decides which loaders run before the next task
    setTimeout(() => (liveKinds = null), 0)
  }
}

/**
 * A layout's shouldRevalidate: skip live revalidations of kinds the layout does not show, and
 * navigations that change only the query (a list's filter, sort or page): no layout loader reads
 * the query, so its data is what a navigation to another page of the same layout keeps too (the
 * router reloads a layout only when its own path changes), and live changes keep it true
 * (issue #26: a filter change ran the root, shell and organization loaders again for nothing).
 */
export function layoutShouldRevalidate(routeId: string) {
  return ({ defaultShouldRevalidate, formMethod, currentUrl, nextUrl }: ShouldRevalidateFunctionArgs) => {
    const kinds = liveKinds
    if (kinds && !formMethod && currentUrl.href === nextUrl.href && !LAYOUT_LIVE_KINDS[routeId]?.some((k) => kinds.includes(k))) return false
    if (!kinds && isQueryOnlyNavigation(formMethod, currentUrl, nextUrl)) return false
    return defaultShouldRevalidate
  }
}

/** A plain navigation (or GET form) to the same path with another query; an action, a reload or a hash change is not one. */
function isQueryOnlyNavigation(formMethod: string | undefined, currentUrl: URL, nextUrl: URL) {
  return (!formMethod || formMethod.toUpperCase() === 'GET') && currentUrl.pathname === nextUrl.pathname && currentUrl.search !== nextUrl.search
}
