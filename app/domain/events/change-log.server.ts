import { randomBytes } from 'node:crypto'
import { type ChangeEvent, onChange } from './bus.server'
import { singleton } from '~/utils/singleton.server'

/**
 * The recent changes of this process, numbered. A page records the number current when it was
 * rendered (root loader, `liveSince`); its live-update stream replays what came after instead of
 * reloading every page at once when the stream opens (docs/benchmarks.md, Pages on phones). The
 * mark names this process, so a stream served by another node or after a restart reloads as before.
 */
const KEEP = 2000
const KEEP_MS = 10 * 60_000

type Entry = { seq: number; at: number; event: ChangeEvent }

const log = () =>
  singleton('change-log', () => {
    const state = { boot: randomBytes(6).toString('hex'), seq: 0, entries: [] as Entry[] }
    onChange((event) => {
      state.seq += 1
      state.entries.push({ seq: state.seq, at: Date.now(), event })
      const cutoff = Date.now() - KEEP_MS
      let drop = 0
      while (drop < state.entries.length && (state.entries.length - drop > KEEP || state.entries[drop]!.at < cutoff)) drop++
      if (drop) state.entries.splice(0, drop)
    })
    return state
  })

/** The mark of "now" for a page being rendered: `{process}.{last change number}`. */
export function changeMark(): string {
  const { boot, seq } = log()
  return `${boot}.${seq}`
}

/** The changes after `mark`, or null when they are not all known here (other process, too old, malformed). */
export function changesSince(mark: string): ChangeEvent[] | null {
  const { boot, seq, entries } = log()
  const match = /^([0-9a-f]+)\.(\d+)$/.exec(mark)
  if (!match || match[1] !== boot) return null
  const since = Number(match[2])
  if (since > seq) return null
  if (since === seq) return []
  // every change after `since` must still be kept
  if (!entries.length || entries[0]!.seq > since + 1) return null
  return entries.filter((e) => e.seq > since).map((e) => e.event)
}
