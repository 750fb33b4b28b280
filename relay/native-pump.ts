/**
 * The relay's native byte pump (native/relay-pump.c, docs/decisions/109-relay-bodies-pumped-off-the-event-loop.md):
 * a raw body's bytes moved socket to socket on a thread of their own. Built by `npm install`
 * (scripts/build-native.mjs); when it is missing or cannot load, or RELAY_PUMP=javascript, raw
 * bodies stay on the JavaScript path (relay/raw-body.ts) and the relay says so once at start.
 */
import { createRequire } from 'node:module'
import path from 'node:path'
import { projectRoot } from '../app/utils/project-root.server'

/** What pump() returns, for cancel(). */
export type PumpHandle = object & { readonly brand: 'relay-pump' }
type NativePump = {
  pump(fromFd: number, toFd: number, length: number, done: (error: string | null, moved: number) => void): PumpHandle
  cancel(handle: PumpHandle): void
}

/** Where scripts/build-native.mjs writes the module. */
export const NATIVE_PUMP_FILE = path.join(projectRoot(import.meta.dirname), 'native', 'build', 'relay-pump.node')

export type PumpMode = 'native' | 'javascript'

let loaded: NativePump | null | undefined
let loadError = ''
let mode: PumpMode = 'native'

function load(): NativePump | null {
  if (loaded !== undefined) return loaded
  try {
    loaded = createRequire(import.meta.url)(NATIVE_PUMP_FILE) as NativePump
  } catch (error) {
    loaded = null
    loadError = (error as Error).message.split('\n')[0]
  }
  return loaded
}

/**
 * Chooses how raw bodies are moved from now on (the relay calls this at start); says what is in
 * use, and why not the native pump when it was asked for and cannot load.
 */
export function choosePump(wanted: PumpMode): { mode: PumpMode; why?: string } {
  mode = wanted
  if (wanted === 'javascript') return { mode }
  if (load()) return { mode }
  mode = 'javascript'
  return { mode, why: `the native pump did not load (${loadError}); run npm install (it builds native/build/relay-pump.node with cc)` }
}

/**
 * What the native pump did in this process: bodies carried whole (for tests and the bench), and
 * every byte it moved, whole bodies or not. Node's socket counters never see those bytes: the
 * metrics' relay bytes add them, in from the agent and out to the browser (server/metrics.ts).
 */
export const pumpStats = { bodies: 0, moved: 0 }

/** The native pump, when it is chosen and loaded. */
export const nativePump = (): NativePump | null => (mode === 'native' ? load() : null)
