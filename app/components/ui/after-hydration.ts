import { cloneElement, type ReactElement, useSyncExternalStore } from 'react'

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

/**
 * A closed menu's or popover's trigger as it reads before hydration: `children` (a button) with the
 * attributes the Radix trigger gives it when closed (role of the popup, aria-expanded, data-state).
 * Each Radix root is a dozen providers for the server to render; the live one mounts right after
 * hydration (useAfterHydration), so the first client render matches this.
 */
export function ClosedTrigger({ popup, children }: { popup: 'dialog' | 'menu'; children: ReactElement<Record<string, unknown>> }) {
  return cloneElement(children, { type: 'button', 'aria-haspopup': popup, 'aria-expanded': false, 'data-state': 'closed' })
}
