import { useLayoutEffect, useRef } from 'react'
import { useAfterHydration } from './after-hydration'
import { reconnected } from './use-return-focus'

type Focused = { element: HTMLElement; text: string }

/**
 * The render right after hydration swaps the shell's plain stand-ins (menu triggers, the notes
 * button) for their live versions, which are new elements. A keyboard user who had already tabbed
 * to one would drop to <body> and lose their place, so the focus moves to the live element with the
 * same tag and name. Then <html data-hydrated> says the page is live (scripts and browser tests
 * wait for it: Remix's router exists before React has hydrated).
 */
export function HydrationHandover() {
  const live = useAfterHydration()
  const focused = useRef<Focused | null>(null)
  // read in the render that swaps the elements: the commit that follows removes the stand-in
  if (live && focused.current === null && typeof document !== 'undefined' && !document.documentElement.hasAttribute('data-hydrated')) {
    const element = document.activeElement
    if (element instanceof HTMLElement && element !== document.body) focused.current = { element, text: element.textContent ?? '' }
  }
  useLayoutEffect(() => {
    if (!live) return
    const was = focused.current
    if (was && !was.element.isConnected && (document.activeElement === null || document.activeElement === document.body)) {
      // the same tag and name; a stand-in without a label (a menu trigger showing its text) by its text
      const match =
        reconnected(was.element) ??
        (was.element.hasAttribute('aria-label') ? null : Array.from(document.getElementsByTagName(was.element.tagName)).find((candidate) => candidate.textContent === was.text))
      if (match instanceof HTMLElement) match.focus()
    }
    document.documentElement.setAttribute('data-hydrated', '')
  }, [live])
  return null
}
