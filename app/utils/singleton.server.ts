/**
 * One instance per process. The server entry and the Remix build are separate module graphs
 * (and Vite re-evaluates modules in development), so shared state lives on globalThis.
 */
export function singleton<T>(name: string, create: () => T): T {
  const store = globalThis as unknown as { __pixelfleet?: Map<string, unknown> }
  store.__pixelfleet ??= new Map()
  if (!store.__pixelfleet.has(name)) store.__pixelfleet.set(name, create())
  return store.__pixelfleet.get(name) as T
}
