import { prisma } from '~/utils/db.server'
import { getConfig } from '~/utils/env.server'
import { onChange } from '../events/bus.server'

export const BUILD_VERSION = '25.03.0'
export const BUILD_NUMBER = '1486'
export const VERSION_TEXT = `${BUILD_VERSION} build ${BUILD_NUMBER}`

/** Site messages whose window contains now (the site-wide banner). */
export async function activeSiteMessages(now = new Date()) {
  // every page's root loader asks: the messages not yet ended are cached for a few seconds (and
  // dropped at once when a message is added or removed); the time window is applied per call
  const messages = await siteCache('messages', () =>
    prisma.siteMessage.findMany({
      where: { ends: { gte: new Date() } },
      orderBy: { starts: 'asc' },
      select: { id: true, text: true, type: true, starts: true, ends: true },
    }),
  )
  return messages.filter((m) => m.starts <= now && m.ends >= now)
}

/** How long site-wide rows read by every page stay cached (writes by another process show after it). */
export const SITE_CACHE_MS = 5_000
const siteCacheEntries = new Map<string, { at: number; value: Promise<unknown> }>()
let siteCacheListening = false

function siteCache<T>(key: string, load: () => Promise<T>): Promise<T> {
  if (!siteCacheListening) {
    siteCacheListening = true
    onChange((e) => {
      if (e.kind === 'site') siteCacheEntries.clear()
    })
  }
  const hit = siteCacheEntries.get(key)
  if (hit && Date.now() - hit.at < SITE_CACHE_MS) return hit.value as Promise<T>
  const value = load()
  siteCacheEntries.set(key, { at: Date.now(), value })
  value.catch(() => siteCacheEntries.delete(key))
  return value
}

/** Instance name: the stored cloud state wins, else INSTANCE_NAME. */
export async function cloudState() {
  const state = await siteCache('cloud', () => prisma.cloudState.findUnique({ where: { id: 'cloud' } }))
  return {
    instanceName: state?.instanceName || getConfig().INSTANCE_NAME,
    revision: state?.revision ?? '',
    deployedAt: state?.deployedAt ?? null,
  }
}
