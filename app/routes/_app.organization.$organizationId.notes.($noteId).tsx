import { type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData, useLocation, useNavigate, useParams } from '@remix-run/react'
import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getSortedRowModel,
  useReactTable,
  type SortingState,
} from '@tanstack/react-table'
import { ArrowDown, ArrowUp, Search, StickyNote } from 'lucide-react'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { CopyNoteLinkButton, noteHref } from '~/components/notes/copy-note-link'
import {
  NOTE_COLOR_CLASSES,
  NoteActionButtons,
  NoteContent,
  NoteForm,
  UNSAVED_NOTE_TEXT,
  useNoteMutation,
  type NoteItem,
} from '~/components/notes/note-parts'
import { EmptyState, PageHeader } from '~/components/page-header'
import { Badge } from '~/components/ui/badge'
import { DateTime } from '~/components/ui/date-time'
import { ConfirmDialog, Dialog } from '~/components/ui/dialog'
import { Input } from '~/components/ui/input'
import { getNote, listNotes } from '~/domain/notes/notes.server'
import { noteExcerpt } from '~/domain/notes/note-text'
import { cn } from '~/utils/cn'
import { domainCall } from '~/utils/errors.server'
import { requireOrgPermission } from '~/utils/org-route.server'
import { formatCount } from '~/utils/format-time'

/**
 * Needs org.view; without note.list the domain refuses and the page shows Access denied.
 * /notes/{noteId} (a shared or bookmarked note link) opens that note: it must belong to this
 * organization and the user needs note.view, else Not found / Access denied inside the shell.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireOrgPermission(request, params.organizationId, 'org.view')
  const organizationId = params.organizationId!
  return domainCall(async () => {
    const opened = params.noteId ? await getNote(actor, organizationId, params.noteId) : null
    return { ...(await listNotes(actor, organizationId)), openedId: opened?.id ?? null }
  })
}

export const handle = { breadcrumb: () => ({ label: 'Notes', to: '.' }) }

const column = createColumnHelper<NoteItem>()

export default function NotesPage() {
  const { notes } = useLoaderData<typeof loader>() as { notes: NoteItem[] }
  const organizationId = useParams().organizationId!
  const [query, setQuery] = useState('')
  const [showArchived, setShowArchived] = useState(false)
  const [sorting, setSorting] = useState<SortingState>([{ id: 'updated', desc: true }])
  // The opened note lives in the URL (/notes/{noteId}) so its address can be shared and bookmarked;
  // whether it opens in the edit form travels in the navigation's state.
  const navigate = useNavigate()
  const location = useLocation()
  const openedId = useParams().noteId ?? null
  const [editing, setEditing] = useState(false)
  const editRequested = Boolean((location.state as { edit?: boolean } | null)?.edit)
  useEffect(() => setEditing(editRequested), [location.key, editRequested])
  const open = useCallback(
    (id: string, edit: boolean) => navigate(noteHref(organizationId, id), { preventScrollReset: true, state: { edit } }),
    [navigate, organizationId],
  )
  const opened = openedId ? { id: openedId, editing } : null
  const setOpened = (next: { id: string; editing: boolean } | null) =>
    next ? open(next.id, next.editing) : navigate(`/organization/${organizationId}/notes`, { preventScrollReset: true })
  const visible = useMemo(() => (showArchived ? notes : notes.filter((n) => !n.archived)), [notes, showArchived])
  const archivedCount = notes.filter((n) => n.archived).length

  const columns = useMemo(
    () => [
      column.accessor('content', {
        header: 'Note',
        cell: ({ row }) => (
          <button type="button" className="flex max-w-md items-start gap-2 text-left hover:underline" onClick={() => open(row.original.id, false)}>
            <span className={cn('mt-1 size-2.5 shrink-0 rounded-full', NOTE_COLOR_CLASSES[row.original.color].swatch)} aria-label={row.original.color} />
            <span className="line-clamp-2">{noteExcerpt(row.original.content, 140)}</span>
          </button>
        ),
      }),
      column.accessor((n) => n.resourceDisplayName || n.resourcePath, {
        id: 'page',
        header: 'Page',
        cell: ({ row }) => (
          <Link to={row.original.resourcePath} className="text-primary hover:underline" title={row.original.resourcePath}>
            {row.original.resourceDisplayName || row.original.resourcePath}
          </Link>
        ),
      }),
      column.accessor('color', { header: 'Colour', cell: ({ getValue }) => <span className="capitalize">{getValue()}</span> }),
      column.accessor('authorName', { header: 'Author' }),
      column.accessor((n) => new Date(n.updated).getTime(), { id: 'updated', header: 'Updated', cell: ({ row }) => <DateTime value={row.original.updated} /> }),
      column.accessor('archived', {
        header: 'Archived',
        cell: ({ row }) => (row.original.archivedOn ? (
            <Badge variant="secondary">
              <DateTime value={row.original.archivedOn} />
            </Badge>
          ) : <span className="text-muted-foreground">—</span>),
      }),
      column.display({
        id: 'actions',
        header: () => <span className="sr-only">Actions</span>,
        cell: ({ row }) => <RowActions note={row.original} onEdit={() => open(row.original.id, true)} />,
      }),
    ],
    [open],
  )

  const table = useReactTable({
    data: visible,
    columns,
    state: { sorting, globalFilter: query },
    onSortingChange: setSorting,
    onGlobalFilterChange: setQuery,
    globalFilterFn: (row, _id, value: string) => {
      const needle = value.toLowerCase()
      const n = row.original
      return [n.content, n.resourceDisplayName, n.resourcePath, n.authorName].some((text) => text.toLowerCase().includes(needle))
    },
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
  })

  const current = opened ? notes.find((n) => n.id === opened.id) : undefined

  return (
    <div>
      <PageHeader title="Notes" subtitle="View and manage your notes across your organization" />
      {notes.length === 0 ? (
        <EmptyState
          icon={<StickyNote className="size-8" />}
          title="No notes"
          text="Get started by creating a new note. Open the notes panel on any page of this organization (the notes button in the header, or the key 'n')."
        />
      ) : (
        <div className="relative overflow-x-auto rounded-lg border bg-card shadow-sm">
          <div className="flex flex-wrap items-center gap-3 border-b px-3 py-2">
            <div className="relative w-72">
              <Search className="pointer-events-none absolute left-2 top-2 size-4 text-muted-foreground" />
              <Input value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Filter notes…" aria-label="Filter notes" className="pl-8" />
            </div>
            <label className="flex items-center gap-1.5 text-sm text-muted-foreground">
              <input type="checkbox" checked={showArchived} onChange={(e) => setShowArchived(e.target.checked)} className="size-3.5" />
              Show archived ({formatCount(archivedCount)})
            </label>
            <span className="ml-auto text-xs text-muted-foreground">
              {table.getRowModel().rows.length} of {notes.length} notes
            </span>
          </div>
          <table className="w-full text-[13px]">
            <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {group.headers.map((header) => (
                    <th
                      key={header.id}
                      className="px-3 py-2 font-medium"
                      aria-sort={header.column.getCanSort() && header.id !== 'actions' ? ariaSort(header.column.getIsSorted()) : undefined}
                    >
                      {header.column.getCanSort() && header.id !== 'actions' ? (
                        <button type="button" className="inline-flex items-center gap-1 hover:text-foreground" onClick={header.column.getToggleSortingHandler()}>
                          {flexRender(header.column.columnDef.header, header.getContext())}
                          {header.column.getIsSorted() === 'asc' ? <ArrowUp className="size-3" /> : header.column.getIsSorted() === 'desc' ? <ArrowDown className="size-3" /> : null}
                        </button>
                      ) : (
                        flexRender(header.column.columnDef.header, header.getContext())
                      )}
                    </th>
                  ))}
                </tr>
              ))}
            </thead>
            <tbody>
              {table.getRowModel().rows.length === 0 ? (
                <tr>
                  <td colSpan={columns.length} className="px-3 py-8 text-center text-muted-foreground">
                    No results.
                  </td>
                </tr>
              ) : (
                table.getRowModel().rows.map((row) => (
                  <tr key={row.id} className={cn('border-b last:border-0 hover:bg-muted/30', row.original.archived && 'text-muted-foreground')}>
                    {row.getVisibleCells().map((cell) => (
                      <td key={cell.id} className="px-3 py-1.5 align-top">
                        {flexRender(cell.column.columnDef.cell, cell.getContext())}
                      </td>
                    ))}
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      )}
      {current ? (
        <NoteDialog
          key={current.id}
          note={current}
          organizationId={organizationId}
          editing={opened!.editing}
          onEditingChange={setEditing}
          onClose={() => setOpened(null)}
        />
      ) : null}
    </div>
  )
}

function RowActions({ note, onEdit }: { note: NoteItem; onEdit: () => void }) {
  const mutation = useNoteMutation(note.organizationId)
  return (
    <div className="flex justify-end">
      <NoteActionButtons compact note={note} busy={mutation.busy} onEdit={onEdit} onAction={(intent) => mutation.submit(intent, { noteId: note.id })} />
    </div>
  )
}

/** A note opened from the table: full text and actions, or the edit form. */
function NoteDialog({
  note,
  organizationId,
  editing,
  onEditingChange,
  onClose,
}: {
  note: NoteItem
  organizationId: string
  editing: boolean
  onEditingChange: (editing: boolean) => void
  onClose: () => void
}) {
  const dirty = useRef(false)
  const [pendingLeave, setPendingLeave] = useState<(() => void) | null>(null)
  const guard = (next: () => void) => (dirty.current ? setPendingLeave(() => next) : next())
  const setDirty = useCallback((value: boolean) => {
    dirty.current = value
  }, [])
  const mutation = useNoteMutation(organizationId, (intent) => (intent === 'delete' ? onClose() : onEditingChange(false)))
  return (
    <>
      <Dialog
        open
        onOpenChange={(open) => !open && guard(onClose)}
        title={editing ? 'Edit Note' : 'Note'}
        description={
          <Link to={note.resourcePath} className="hover:underline">
            {note.resourceDisplayName || note.resourcePath}
          </Link>
        }
        className="max-w-lg"
      >
        {editing ? (
          <NoteForm
            initial={{ content: note.content, color: note.color }}
            busy={mutation.busy}
            error={mutation.failure?.issues.map((i) => i.message).join(' ') || undefined}
            submitLabel="Save"
            onDirtyChange={setDirty}
            onCancel={() => guard(() => onEditingChange(false))}
            onSubmit={(value) => mutation.submit('update', { ...value, noteId: note.id })}
          />
        ) : (
          <div className="flex flex-col gap-3">
            <NoteContent note={note} className="max-h-80 overflow-y-auto" />
            <p className="text-xs text-muted-foreground">
              {note.authorName} · created <DateTime value={note.created} /> · updated <DateTime value={note.updated} />
            </p>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <NoteActionButtons
                note={note}
                busy={mutation.busy}
                onEdit={() => onEditingChange(true)}
                onAction={(intent) => {
                  // leave /notes/{noteId} first: revalidating a deleted note's address would be a Not found
                  if (intent === 'delete') onClose()
                  mutation.submit(intent, { noteId: note.id })
                }}
              />
              <CopyNoteLinkButton organizationId={organizationId} noteId={note.id} />
            </div>
          </div>
        )}
      </Dialog>
      <ConfirmDialog
        open={pendingLeave !== null}
        onOpenChange={(open) => !open && setPendingLeave(null)}
        title="Unsaved changes"
        text={UNSAVED_NOTE_TEXT}
        confirmLabel="Leave"
        onConfirm={() => {
          dirty.current = false
          pendingLeave?.()
          setPendingLeave(null)
        }}
      />
    </>
  )
}

export const ErrorBoundary = GeneralErrorBoundary

const ariaSort = (sorted: false | 'asc' | 'desc') => (sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none')
