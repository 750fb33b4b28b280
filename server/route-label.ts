/**
 * The `route` label of the request metrics: the Remix route pattern a path matched
 * (`/organization/:organizationId/notes/:noteId?`), so the label set is the app's routes, not its
 * ids. Under a splat route (`/client/v1/*`, the API) the rest of the path is kept when it is made
 * of words (API call names), else `:param`. A 404 is `(unmatched)` whatever its path.
 */
type RouteEntry = { path?: string; parentId?: string }
type Pattern = { label: string; segments: string[]; splat: boolean; statics: number }

/** Served by express before Remix (server/web-ops.ts). */
const OPS_PATHS = new Set(['/healthz', '/readyz', '/metrics'])

/** Words: route names and API call names (letters, digits after the first, dashes). */
const WORD = /^[A-Za-z][A-Za-z0-9-]{0,39}$/

/** Every full path pattern of a Remix build's route manifest, optional segments expanded. */
export function routePatterns(routes: Record<string, RouteEntry | undefined>): Pattern[] {
  const full = (route: RouteEntry): string[] => {
    const parent = route.parentId ? routes[route.parentId] : undefined
    return [...(parent ? full(parent) : []), ...(route.path ?? '').split('/').filter(Boolean)]
  }
  const patterns = new Map<string, Pattern>()
  for (const route of Object.values(routes)) {
    if (!route) continue
    let variants: string[][] = [[]]
    for (const segment of full(route)) {
      if (segment.endsWith('?')) variants = variants.flatMap((v) => [v, [...v, segment.slice(0, -1)]])
      else variants = variants.map((v) => [...v, segment])
    }
    for (const segments of variants) {
      const splat = segments.at(-1) === '*'
      const label = '/' + segments.join('/')
      patterns.set(label, { label, segments: splat ? segments.slice(0, -1) : segments, splat, statics: segments.filter((s) => !s.startsWith(':') && s !== '*').length })
    }
  }
  // most specific first: more static segments, then no splat, then longer
  return [...patterns.values()].sort((a, b) => b.statics - a.statics || Number(a.splat) - Number(b.splat) || b.segments.length - a.segments.length)
}

function matches(pattern: Pattern, parts: string[]) {
  if (pattern.splat ? parts.length < pattern.segments.length : parts.length !== pattern.segments.length) return false
  return pattern.segments.every((segment, i) => segment.startsWith(':') || segment.toLowerCase() === parts[i].toLowerCase())
}

/** The label of a request path; without patterns (dev server) words are kept and the rest is `:param`. */
export function routeLabelOf(patterns: Pattern[] | null, path: string, status: number): string {
  if (status === 404) return '(unmatched)'
  if (OPS_PATHS.has(path)) return path
  if (path.startsWith('/broker-auth/')) return '/broker-auth/:check'
  if (path.startsWith('/assets/')) return '/assets/*'
  if (/\.[A-Za-z0-9]+$/.test(path) && !path.startsWith('/client/')) return '(static file)'
  const parts = path.split('/').filter(Boolean).slice(0, 12)
  const words = (list: string[]) => list.map((part) => (WORD.test(part) && !/\d{3}/.test(part) ? part : ':param'))
  if (!patterns) return '/' + words(parts).join('/')
  const pattern = patterns.find((candidate) => matches(candidate, parts))
  if (!pattern) return '(unmatched)'
  if (!pattern.splat) return pattern.label
  // the root splat (`/*`, the not-found page) keeps no words: any path would become a label
  if (pattern.segments.length === 0) return '/*'
  return ['', ...pattern.segments, ...words(parts.slice(pattern.segments.length))].join('/')
}
