import { useBeforeUnload, useBlocker } from '@remix-run/react'
import { NotebookPen, X } from 'lucide-react'
import { ErrorBoundary } from 'react-error-boundary'
import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { plainIcon } from '~/components/shell/plain-icon'
import { Alert } from '~/components/ui/alert'
import { Button, buttonVariants } from '~/components/ui/button'
import { useFocusWhileMounted } from '~/components/ui/use-return-focus'
import { useAfterHydration } from '~/components/ui/after-hydration'
import { ConfirmDialog } from '~/components/ui/dialog'
import { Tooltip } from '~/components/ui/tooltip'
import { cn } from '~/utils/cn'
import { isTypingTarget } from '~/utils/typing-target'
import { UNSAVED_NOTE_TEXT } from './unsaved-note'

/** The open panel's code: fetched on the first open, or earlier when the button is hovered or focused. */
const loadOpenNotesPanel = () => import('./open-notes-panel')
const OpenNotesPanel = lazy(loadOpenNotesPanel)

/**
 * The notes side panel (spec 02 section 2): toggled by the header button or the key 'n' (not
 * while typing in a field), listing the notes of the current page path in modes list, view,
 * edit and new. Shown only inside an organization and only with canListNotes. Opening it moves
 * the focus into it; Escape or closing returns the focus to where it was. On phones it is a
 * full-screen sheet over the page. The open panel (open-notes-panel.tsx) and the leave
 * confirmation render only once needed: the server draws the header button at most.
 */

type NotesContextValue = {
  organizationId: string | null
  open: boolean
  toggle: () => void
  /** runs `next` now, or after the user confirms leaving an unsaved note */
  guard: (next: () => void) => void
  setDirty: (dirty: boolean) => void
}

const NotesContext = createContext<NotesContextValue | null>(null)
const useNotes = () => useContext(NotesContext)

/** Holds the panel state for the shell; `organizationId` null = no notes here (outside an organization or no right). */
export function NotesProvider({ organizationId, children }: { organizationId: string | null; children: ReactNode }) {
  const [open, setOpen] = useState(false)
  const dirty = useRef(false)
  const [pendingLeave, setPendingLeave] = useState<(() => void) | null>(null)

  const guard = useCallback((next: () => void) => {
    if (dirty.current) setPendingLeave(() => next)
    else next()
  }, [])
  const toggle = useCallback(() => guard(() => setOpen((o) => !o)), [guard])
  const setDirty = useCallback((value: boolean) => {
    dirty.current = value
  }, [])

  useEffect(() => {
    if (!organizationId) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'n' || event.ctrlKey || event.metaKey || event.altKey || event.repeat || event.defaultPrevented) return
      if (isTypingTarget(event.target) || document.querySelector('[role="dialog"], [role="alertdialog"]')) return
      event.preventDefault()
      toggle()
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [organizationId, toggle])

  // Leaving the page (link, back button) with an unsaved note asks first; so does closing the tab.
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty.current && currentLocation.pathname !== nextLocation.pathname)
  useBeforeUnload(
    useCallback((event: BeforeUnloadEvent) => {
      if (dirty.current) event.preventDefault()
    }, []),
  )

  const value = useMemo(() => ({ organizationId, open: open && organizationId !== null, toggle, guard, setDirty }), [organizationId, open, toggle, guard, setDirty])
  const confirmOpen = pendingLeave !== null || blocker.state === 'blocked'
  // mounted on the first need and kept (its closing animation and focus return need the mounted dialog)
  const [confirmMounted, setConfirmMounted] = useState(false)
  if (confirmOpen && !confirmMounted) setConfirmMounted(true)
  return (
    <NotesContext.Provider value={value}>
      {children}
      {confirmMounted ? <ConfirmDialog
        open={confirmOpen}
        onOpenChange={(isOpen) => {
          if (isOpen) return
          setPendingLeave(null)
          if (blocker.state === 'blocked') blocker.reset()
        }}
        title="Unsaved changes"
        text={UNSAVED_NOTE_TEXT}
        confirmLabel="Leave"
        onConfirm={() => {
          dirty.current = false
          if (blocker.state === 'blocked') blocker.proceed()
          pendingLeave?.()
          setPendingLeave(null)
        }}
      /> : null}
    </NotesContext.Provider>
  )
}

/** The class text of <Button variant="ghost" size="icon">, worked out once for the server's button. */
const GHOST_ICON_BUTTON = cn(buttonVariants({ variant: 'ghost', size: 'icon' }))

/**
 * The header button; renders nothing where the panel is unavailable. The server renders the plain
 * button (closed, as every page starts); its tooltip comes with the first render after hydration.
 */
export function NotesButton() {
  const notes = useNotes()
  const live = useAfterHydration()
  if (!notes?.organizationId) return null
  if (!live) {
    return (
      <button className={GHOST_ICON_BUTTON} aria-label="Notes" aria-pressed={false} aria-keyshortcuts="n" onClick={notes.toggle}>
        {plainIcon(NotebookPen)}
      </button>
    )
  }
  return (
    <Tooltip content="Notes (n)" side="bottom">
      <Button
        variant={notes.open ? 'secondary' : 'ghost'}
        size="icon"
        aria-label="Notes"
        aria-pressed={notes.open}
        aria-keyshortcuts="n"
        onClick={notes.toggle}
        onPointerEnter={preloadPanel}
        onFocus={preloadPanel}
      >
        <NotebookPen />
      </Button>
    </Tooltip>
  )
}

const preloadPanel = () => {
  loadOpenNotesPanel().catch(() => {
    // not fatal: the open itself loads it again
  })
}

export function NotesPanel() {
  const notes = useNotes()
  if (!notes?.organizationId || !notes.open) return null
  // the panel's first open loads its chunk (notes.preload on hovering or focusing the button starts it earlier)
  // its code missing (a newer version was deployed since the page loaded, the network dropped) must
  // not take the page down: the panel says so and offers a reload
  return (
    <ErrorBoundary fallback={<PanelUnavailable close={notes.toggle} />}>
      <Suspense fallback={null}>
        <OpenNotesPanel organizationId={notes.organizationId} guard={notes.guard} setDirty={notes.setDirty} close={notes.toggle} />
      </Suspense>
    </ErrorBoundary>
  )
}

function PanelUnavailable({ close }: { close: () => void }) {
  const panel = useRef<HTMLElement>(null)
  useFocusWhileMounted(panel)
  return (
    <aside
      ref={panel}
      tabIndex={-1}
      aria-label="Notes panel"
      onKeyDown={(event) => event.key === 'Escape' && close()}
      className="fixed inset-0 z-40 flex flex-col bg-card outline-none md:static md:z-auto md:w-80 md:shrink-0 md:border-l xl:w-96"
    >
      <div className="flex h-11 shrink-0 items-center gap-2 border-b px-3">
        <h2 className="flex-1 text-sm font-semibold">Notes</h2>
        <Button variant="ghost" size="icon" className="size-7" aria-label="Close notes" onClick={close}>
          <X />
        </Button>
      </div>
      <div className="flex flex-col items-start gap-3 p-3">
        <Alert type="error">The notes panel could not be loaded. The portal may have been updated since this page was opened.</Alert>
        <Button size="sm" variant="outline" onClick={() => window.location.reload()}>
          Reload page
        </Button>
      </div>
    </aside>
  )
}
