import { useFetcher, useLocation, useMatches, type UIMatch } from '@remix-run/react'
import { ArrowLeft, ChevronDown, ChevronRight, Plus, StickyNote, X } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { type BreadcrumbHandle } from '~/components/shell/breadcrumbs'
import { Button } from '~/components/ui/button'
import { DateTime } from '~/components/ui/date-time'
import { useFocusWhileMounted } from '~/components/ui/use-return-focus'
import { DEFAULT_NOTE_COLOR } from '~/domain/notes/note-colors'
import type { loader as notesLoader } from '~/routes/resources.notes'
import { cn } from '~/utils/cn'
import { formatCount } from '~/utils/format-time'
import { CopyNoteLinkButton } from './copy-note-link'
import { NOTE_COLOR_CLASSES, NoteActionButtons, NoteContent, NoteForm, useNoteMutation, type NoteItem } from './note-parts'

/**
 * The open notes panel (spec 02 section 2) in modes list, view, edit and new; loaded on its first
 * open (notes-panel.tsx holds the state, the key and the header button), so neither the server's
 * render of every page nor the first load of its scripts carries it.
 */

/** The page's name for notes: the breadcrumb trail, e.g. 'Demo Live Events / Agents'. */
function usePageDisplayName(): string {
  const matches = useMatches() as UIMatch<unknown, BreadcrumbHandle | undefined>[]
  return matches
    .flatMap((m) => {
      const crumb = m.handle?.breadcrumb?.(m)
      return crumb ? (Array.isArray(crumb) ? crumb : [crumb]) : []
    })
    .map((c) => c.label)
    .join(' / ')
}

type Mode = { name: 'list' } | { name: 'view'; id: string } | { name: 'edit'; id: string } | { name: 'new' }

export default function OpenNotesPanel({ organizationId, guard, setDirty, close }: { organizationId: string; guard: (next: () => void) => void; setDirty: (dirty: boolean) => void; close: () => void }) {
  const { pathname } = useLocation()
  const displayName = usePageDisplayName()
  const list = useFetcher<typeof notesLoader>()
  const [mode, setMode] = useState<Mode>({ name: 'list' })
  const [showArchived, setShowArchived] = useState(false)
  const { load } = list

  useEffect(() => {
    load(`/resources/notes?${new URLSearchParams({ organizationId, path: pathname })}`)
    setMode({ name: 'list' })
  }, [load, organizationId, pathname])

  const mutation = useNoteMutation(organizationId, (intent, note) => {
    if (intent === 'delete') setMode({ name: 'list' })
    else if ((intent === 'create' || intent === 'update') && note) setMode({ name: 'view', id: note.id })
  })

  const all = (list.data?.notes ?? []) as NoteItem[]
  const active = all.filter((n) => !n.archived)
  const archived = all.filter((n) => n.archived)
  const current = mode.name === 'view' || mode.name === 'edit' ? all.find((n) => n.id === mode.id) : undefined
  const go = (next: Mode) => guard(() => setMode(next))
  const act = (note: NoteItem, intent: 'archive' | 'unarchive' | 'delete') => mutation.submit(intent, { noteId: note.id })
  const formError = mutation.failure?.issues.map((i) => i.message).join(' ') || undefined

  // keyboard users land in the panel, and go back to what they had focused when it closes
  const panel = useRef<HTMLElement>(null)
  useFocusWhileMounted(panel)

  return (
    <aside
      ref={panel}
      tabIndex={-1}
      aria-label="Notes panel"
      onKeyDown={(event) => {
        // a menu or field that handles Escape itself marks it handled
        if (event.key !== 'Escape' || event.defaultPrevented) return
        event.preventDefault()
        close()
      }}
      className="fixed inset-0 z-40 flex flex-col bg-card outline-none md:static md:z-auto md:w-80 md:shrink-0 md:border-l xl:w-96"
    >
      <div className="flex h-11 shrink-0 items-center gap-2 border-b px-3">
        {mode.name !== 'list' ? (
          <Button variant="ghost" size="icon" className="size-7" aria-label="Back to notes" onClick={() => go({ name: 'list' })}>
            <ArrowLeft />
          </Button>
        ) : (
          <StickyNote className="size-4 text-muted-foreground" />
        )}
        <div className="min-w-0 flex-1">
          <h2 className="text-sm font-semibold leading-tight">
            {mode.name === 'new' ? 'New Note' : mode.name === 'edit' ? 'Edit Note' : 'Notes'}
            {mode.name === 'list' && active.length > 0 ? <span className="ml-1.5 font-normal text-muted-foreground">{active.length}</span> : null}
          </h2>
          <p className="truncate text-[11px] text-muted-foreground" title={displayName}>
            {displayName || pathname}
          </p>
        </div>
        <Button variant="ghost" size="icon" className="size-7" aria-label="Close notes" onClick={close}>
          <X />
        </Button>
      </div>

      <div className="min-h-0 flex-1 overflow-y-auto p-3">
        {mode.name === 'list' ? (
          <div className="flex flex-col gap-2">
            {list.data?.canCreate ? (
              <Button size="sm" variant="outline" className="w-full" onClick={() => setMode({ name: 'new' })}>
                <Plus />
                New Note
              </Button>
            ) : null}
            {!list.data ? (
              <p className="py-6 text-center text-xs text-muted-foreground">Loading notes…</p>
            ) : active.length === 0 ? (
              <div className="flex flex-col items-center gap-1 rounded-md border border-dashed px-4 py-8 text-center">
                <StickyNote className="mb-1 size-6 text-muted-foreground" />
                <p className="text-sm font-semibold">No notes</p>
                <p className="text-xs text-muted-foreground">Get started by creating a new note.</p>
              </div>
            ) : (
              active.map((note) => <NoteCard key={note.id} note={note} onOpen={() => setMode({ name: 'view', id: note.id })} />)
            )}
            {archived.length > 0 ? (
              <div className="mt-2">
                <button
                  type="button"
                  className="flex w-full items-center gap-1 py-1 text-xs font-semibold text-muted-foreground hover:text-foreground"
                  aria-expanded={showArchived}
                  onClick={() => setShowArchived((s) => !s)}
                >
                  {showArchived ? <ChevronDown className="size-3.5" /> : <ChevronRight className="size-3.5" />}
                  Archived Notes ({formatCount(archived.length)})
                </button>
                {showArchived ? (
                  <div className="mt-1 flex flex-col gap-2 opacity-75">
                    {archived.map((note) => (
                      <NoteCard key={note.id} note={note} onOpen={() => setMode({ name: 'view', id: note.id })} />
                    ))}
                  </div>
                ) : null}
              </div>
            ) : null}
          </div>
        ) : mode.name === 'new' ? (
          <NoteForm
            initial={{ content: '', color: DEFAULT_NOTE_COLOR }}
            busy={mutation.busy}
            error={formError}
            submitLabel="Create"
            onDirtyChange={setDirty}
            onCancel={() => go({ name: 'list' })}
            onSubmit={(value) => mutation.submit('create', { ...value, resourcePath: pathname, resourceDisplayName: displayName })}
          />
        ) : !current ? (
          <p className="py-6 text-center text-xs text-muted-foreground">This note no longer exists.</p>
        ) : mode.name === 'edit' ? (
          <NoteForm
            key={current.id}
            initial={{ content: current.content, color: current.color }}
            busy={mutation.busy}
            error={formError}
            submitLabel="Save"
            onDirtyChange={setDirty}
            onCancel={() => go({ name: 'view', id: current.id })}
            onSubmit={(value) => mutation.submit('update', { ...value, noteId: current.id })}
          />
        ) : (
          <div className="flex flex-col gap-3">
            <NoteContent note={current} />
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
              <dt className="text-muted-foreground">Author</dt>
              <dd>{current.authorName}</dd>
              <dt className="text-muted-foreground">Created</dt>
              <dd><DateTime value={current.created} /></dd>
              <dt className="text-muted-foreground">Updated</dt>
              <dd><DateTime value={current.updated} /></dd>
              {current.archivedOn ? (
                <>
                  <dt className="text-muted-foreground">Archived</dt>
                  <dd><DateTime value={current.archivedOn} /></dd>
                </>
              ) : null}
            </dl>
            <div className="flex flex-wrap items-center justify-between gap-1">
              <NoteActionButtons note={current} busy={mutation.busy} onEdit={() => setMode({ name: 'edit', id: current.id })} onAction={(intent) => act(current, intent)} />
              <CopyNoteLinkButton organizationId={organizationId} noteId={current.id} />
            </div>
          </div>
        )}
      </div>
    </aside>
  )
}

function NoteCard({ note, onOpen }: { note: NoteItem; onOpen: () => void }) {
  return (
    <button
      type="button"
      onClick={onOpen}
      className={cn('w-full rounded-md border p-2.5 text-left shadow-sm transition hover:shadow focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring', NOTE_COLOR_CLASSES[note.color].card)}
    >
      <p className="line-clamp-5 whitespace-pre-wrap break-words text-[13px] leading-snug">{note.content || <span className="italic text-muted-foreground">Empty note</span>}</p>
      <p className="mt-2 flex justify-between gap-2 text-[11px] text-muted-foreground">
        <span className="truncate">{note.authorName}</span>
        <DateTime value={note.updated} className="shrink-0" />
      </p>
    </button>
  )
}
