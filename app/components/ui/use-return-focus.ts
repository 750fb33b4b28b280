import { useCallback, useLayoutEffect, useRef } from 'react'

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
    const target = opener.current
    opener.current = null
    if (target && target.isConnected) {
      event.preventDefault()
      target.focus()
    }
  }, [])
}

let lastOutsideMenu: HTMLElement | null = null
const inMenu = (el: Element) => el.closest('[role="menu"]') !== null

if (typeof document !== 'undefined') {
  document.addEventListener('focusin', (event) => {
    if (event.target instanceof HTMLElement && !inMenu(event.target)) lastOutsideMenu = event.target
  })
}
