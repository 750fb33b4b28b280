import { useSyncExternalStore } from 'react'

const noSubscription = () => () => {}

/**
 * False on the server and while the browser hydrates, true on every render after that (React renders
 * once more right after hydration when this flips). For parts of the shell whose server HTML can be
 * a plain stand-in: a closed menu's trigger looks the same as a plain button, but Radix's menu and
 * dialog roots are a dozen providers each for the server to render on every page.
 */
export function useAfterHydration() {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  )
}
