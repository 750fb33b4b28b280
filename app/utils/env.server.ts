import { loadConfig, type Config } from '../../server/config'
import { singleton } from './singleton.server'

/** The validated configuration; the server entry validates it first, so this never fails late. */
export function getConfig(): Config {
  return singleton('config', () => loadConfig())
}

/** Tests and the server entry replace the configuration before anything reads it. */
export function setConfig(config: Config) {
  const store = globalThis as unknown as { __pixelfleet?: Map<string, unknown> }
  store.__pixelfleet ??= new Map()
  store.__pixelfleet.set('config', config)
  for (const listener of configListeners()) listener(config)
}

const configListeners = () => singleton('config-listeners', () => new Set<(config: Config) => void>())

/**
 * Calls back whenever the configuration is replaced: threads holding a copy (the ingest worker)
 * must see what the server fills in after start, e.g. the relay address once its port is bound.
 */
export function onConfigChange(listener: (config: Config) => void): () => void {
  configListeners().add(listener)
  return () => configListeners().delete(listener)
}
