import { type Actor } from '../actor'
import { getOrganizationAccess } from '../access/access.server'
import { type ChangeEvent, onChange } from './bus.server'

/** Realtime merge debounce (spec 02 section 9). */
export const LIVE_MERGE_MS = 100

/** Events with the same organization and kind merge into one, their ids united. */
export function mergeEvents(events: ChangeEvent[]): ChangeEvent[] {
  const merged = new Map<string, ChangeEvent>()
  for (const e of events) {
    const key = `${e.organizationId ?? ''}\u0000${e.kind}\u0000${e.userId ?? ''}`
    const seen = merged.get(key)
    if (!seen) merged.set(key, { ...e, ids: e.ids ? [...e.ids] : undefined })
    else seen.ids = seen.ids && e.ids ? [...new Set([...seen.ids, ...e.ids])] : undefined
  }
  return [...merged.values()]
}

/**
 * Subscribes one viewer to the change bus: events are collected for 100 ms, merged, and only those
 * about organizations the viewer may see (membership re-checked for each batch) or addressed to the
 * viewer are delivered; `replay` (changes since the viewer's page was rendered) is delivered the same
 * way at once. Returns the unsubscribe function.
 */
export function subscribeViewer(actor: Actor & { kind: 'user' }, deliver: (events: ChangeEvent[]) => void, replay: ChangeEvent[] = []): () => void {
  // replay: changes made before this subscription that the viewer's page has not seen (change-log.server.ts)
  let pending: ChangeEvent[] = replay.filter((e) => !e.userId || e.userId === actor.userId)
  let timer: ReturnType<typeof setTimeout> | undefined
  let closed = false

  const mayView = async (organizationId: string) => {
    try {
      await getOrganizationAccess(actor, organizationId)
      return true
    } catch {
      return false
    }
  }

  const flush = async () => {
    timer = undefined
    const batch = mergeEvents(pending)
    pending = []
    const orgs = [...new Set(batch.flatMap((e) => (e.organizationId ? [e.organizationId] : [])))]
    const allowed = new Set((await Promise.all(orgs.map(async (id) => ((await mayView(id)) ? id : null)))).filter(Boolean))
    const visible = batch.filter((e) => {
      if (e.userId && e.userId !== actor.userId) return false
      return e.organizationId === null || allowed.has(e.organizationId)
    })
    if (visible.length && !closed) deliver(visible)
  }

  const off = onChange((event) => {
    if (event.userId && event.userId !== actor.userId) return
    pending.push(event)
    timer ??= setTimeout(() => void flush(), LIVE_MERGE_MS)
  })
  if (pending.length) timer = setTimeout(() => void flush(), 0)
  return () => {
    closed = true
    off()
    clearTimeout(timer)
  }
}
