import { useEffect, useState } from 'react'
import { isTypingTarget } from '~/utils/typing-target'
import { Dialog } from '../ui/dialog'

/** The window event that opens the sheet from a menu item (the key '?' opens it too). */
export const SHOW_SHORTCUTS_EVENT = 'pixelfleet:show-shortcuts'

/** Every keyboard shortcut of the console, where it works and what it does. */
const SHORTCUTS: { keys: string[]; where: string; what: string }[] = [
  { keys: ['?'], where: 'Anywhere', what: 'Show this list of keyboard shortcuts' },
  { keys: ['Tab'], where: 'First key on a page', what: 'Skip to content: jump past the menus to the page itself' },
  { keys: ['n'], where: 'Inside an organization', what: 'Open or close the notes panel (focus moves into it)' },
  { keys: ['Esc'], where: 'Notes panel, dialogs, menus', what: 'Close it and return to where you were' },
  { keys: ['Esc'], where: 'Agent name filter', what: 'Clear the filter' },
  { keys: ['↑', '↓', 'Enter'], where: 'Menus and search suggestions', what: 'Move through the choices and pick one' },
  { keys: ['Space'], where: 'Table row checkbox', what: 'Select the row for bulk actions' },
]

/** The '?' sheet listing the keyboard shortcuts (not while typing in a field or with a dialog open). */
export function ShortcutHelp() {
  const [open, setOpen] = useState(false)
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== '?' || event.ctrlKey || event.metaKey || event.altKey || event.repeat || event.defaultPrevented) return
      if (isTypingTarget(event.target) || document.querySelector('[role="dialog"], [role="alertdialog"]')) return
      event.preventDefault()
      setOpen(true)
    }
    const onShow = () => setOpen(true)
    window.addEventListener('keydown', onKeyDown)
    window.addEventListener(SHOW_SHORTCUTS_EVENT, onShow)
    return () => {
      window.removeEventListener('keydown', onKeyDown)
      window.removeEventListener(SHOW_SHORTCUTS_EVENT, onShow)
    }
  }, [])
  // a closed dialog renders no HTML: neither the server nor hydration renders its Radix tree before
  // the first open; it stays mounted after it (closing animation, focus return)
  const [mounted, setMounted] = useState(false)
  if (open && !mounted) setMounted(true)
  if (!mounted) return null
  return (
    <Dialog open={open} onOpenChange={setOpen} title="Keyboard shortcuts" className="max-w-lg">
      <table className="w-full text-[13px]">
        <thead className="text-left text-xs text-muted-foreground">
          <tr>
            <th scope="col" className="pb-1.5 pr-3 font-medium">Keys</th>
            <th scope="col" className="pb-1.5 pr-3 font-medium">Where</th>
            <th scope="col" className="pb-1.5 font-medium">What it does</th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={`${s.keys.join('+')} ${s.where}`} className="border-t align-top">
              <td className="whitespace-nowrap py-1.5 pr-3">
                {s.keys.map((k) => (
                  <kbd key={k} className="mr-1 rounded border bg-muted px-1.5 py-0.5 font-mono text-xs">
                    {k}
                  </kbd>
                ))}
              </td>
              <td className="py-1.5 pr-3 text-muted-foreground">{s.where}</td>
              <td className="py-1.5">{s.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  )
}
