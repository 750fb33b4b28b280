import { useCallback, useEffect, useLayoutEffect, useRef, type RefObject } from 'react'

/**
 * Focus goes back to the control that opened a dialog when it closes. Radix does this only for its
 * own Trigger; our dialogs are opened from buttons and from menu items, and a menu item is gone by
 * the time the dialog closes (the menu may even be unmounted before the dialog mounts), so then
 * the opener is the last control focused outside any menu: the menu's trigger button.
 */
export function useReturnFocus(open: boolean) {
  const opener = useRef<HTMLElement | null>(null)
  useLayoutEffect(() => {
    if (!open || typeof document === 'undefined') return
    const active = document.activeElement
    opener.current = active instanceof HTMLElement && active !== document.body && !inMenu(active) ? active : lastOutsideMenu
  }, [open])
  return useCallback((event: Event) => {
    const target = reconnected(opener.current)
    opener.current = null
    if (target) {
      event.preventDefault()
      target.focus()
    }
  }, [])
}

/**
 * The opener, or its replacement when a live update re-rendered the list it sat in while the
 * dialog was open (same tag and accessible label, e.g. the row's "Remove Arena North FOH" button).
 */
export function reconnected(target: HTMLElement | null): HTMLElement | null {
  if (!target) return null
  if (target.isConnected) return target
  const label = target.getAttribute('aria-label')
  if (!label) return null
  return document.querySelector<HTMLElement>(`${target.tagName.toLowerCase()}[aria-label="${CSS.escape(label)}"]`)
}

/**
 * For a panel that takes the focus while it is shown (the notes panel): focuses `panel` when it
 * mounts and gives the focus back to what had it, or its replacement, when it unmounts.
 */
export function useFocusWhileMounted(panel: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null
    panel.current?.focus()
    return () => reconnected(opener)?.focus()
  }, [panel])
}

let lastOutsideMenu: HTMLElement | null = null
const inMenu = (el: Element) => el.closest('[role="menu"]') !== null

if (typeof document !== 'undefined') {
  document.addEventListener('focusin', (event) => {
    if (event.target instanceof HTMLElement && !inMenu(event.target)) lastOutsideMenu = event.target
  })
}
