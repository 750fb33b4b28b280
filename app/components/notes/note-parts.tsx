import { useFetcher } from '@remix-run/react'
import { Archive, ArchiveRestore, Check, Pencil, Trash2 } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { toast } from 'sonner'
import { Button } from '~/components/ui/button'
import { ConfirmDialog } from '~/components/ui/dialog'
import { Textarea } from '~/components/ui/input'
import { NOTE_COLORS, type NoteColor } from '~/domain/notes/note-colors'
import type { NoteView } from '~/domain/notes/notes.server'
import type { action as notesAction } from '~/routes/resources.notes'
import { cn } from '~/utils/cn'
import type { ActionFailure } from '~/utils/errors.server'

/** A note as the browser receives it (dates may arrive as Date or as ISO text). */
export type NoteItem = Omit<NoteView, 'created' | 'updated' | 'archivedOn'> & { created: Date | string; updated: Date | string; archivedOn: Date | string | null }

/** Card tint, border and swatch per note colour. */
export const NOTE_COLOR_CLASSES: Record<NoteColor, { card: string; swatch: string }> = {
  yellow: { card: 'border-yellow-300 bg-yellow-50', swatch: 'bg-yellow-300' },
  blue: { card: 'border-sky-300 bg-sky-50', swatch: 'bg-sky-400' },
  red: { card: 'border-red-300 bg-red-50', swatch: 'bg-red-400' },
  green: { card: 'border-emerald-300 bg-emerald-50', swatch: 'bg-emerald-400' },
  orange: { card: 'border-orange-300 bg-orange-50', swatch: 'bg-orange-400' },
}

export { UNSAVED_NOTE_TEXT } from './unsaved-note'

export type NoteIntent = 'create' | 'update' | 'archive' | 'unarchive' | 'delete'

/**
 * Sends one note change to /resources/notes and toasts the outcome. `onDone` runs after a
 * successful change with the intent and the returned note (absent after a delete).
 */
export function useNoteMutation(organizationId: string, onDone?: (intent: NoteIntent, note: NoteItem | null) => void) {
  const fetcher = useFetcher<typeof notesAction>()
  const lastIntent = useRef<NoteIntent | null>(null)
  const onDoneRef = useRef(onDone)
  onDoneRef.current = onDone
  const failure = fetcher.data && !fetcher.data.ok ? (fetcher.data as ActionFailure) : null

  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data || !lastIntent.current) return
    const intent = lastIntent.current
    lastIntent.current = null
    if (fetcher.data.ok) {
      if (fetcher.data.message) toast.success(fetcher.data.message)
      const result = fetcher.data.result as NoteItem | { id: string }
      onDoneRef.current?.(intent, 'content' in result ? result : null)
    } else {
      const problem = fetcher.data as ActionFailure
      if (!problem.issues.length) toast.error(problem.message || 'An unrecognized error has occurred')
    }
  }, [fetcher.state, fetcher.data])

  const submit = (intent: NoteIntent, fields: Record<string, string> = {}) => {
    lastIntent.current = intent
    fetcher.submit({ intent, organizationId, ...fields }, { method: 'post', action: '/resources/notes' })
  }
  return { submit, busy: fetcher.state !== 'idle', failure }
}

/** A note's text in its colour's card, or 'Empty note'; the panel and the note page show it alike. */
export function NoteContent({ note, className }: { note: Pick<NoteItem, 'content' | 'color'>; className?: string }) {
  return (
    <div className={cn('whitespace-pre-wrap break-words rounded-md border p-3 text-[13px] leading-relaxed', NOTE_COLOR_CLASSES[note.color].card, className)}>
      {note.content || <span className="italic text-muted-foreground">Empty note</span>}
    </div>
  )
}

export function NoteColorPicker({ value, onChange }: { value: NoteColor; onChange: (color: NoteColor) => void }) {
  return (
    <div role="radiogroup" aria-label="Color" className="flex items-center gap-1.5">
      {NOTE_COLORS.map((color) => (
        <button
          key={color}
          type="button"
          role="radio"
          aria-checked={value === color}
          aria-label={color}
          title={color}
          onClick={() => onChange(color)}
          className={cn(
            'flex size-6 items-center justify-center rounded-full border border-black/10 transition focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
            NOTE_COLOR_CLASSES[color].swatch,
            value === color && 'ring-2 ring-foreground/60 ring-offset-1',
          )}
        >
          {value === color ? <Check className="size-3.5 text-black/70" /> : null}
        </button>
      ))}
    </div>
  )
}

/** Content and colour editor shared by the panel and the Notes page. */
export function NoteForm({
  initial,
  busy,
  error,
  submitLabel,
  onSubmit,
  onCancel,
  onDirtyChange,
}: {
  initial: { content: string; color: NoteColor }
  busy: boolean
  error?: string
  submitLabel: string
  onSubmit: (value: { content: string; color: NoteColor }) => void
  onCancel: () => void
  onDirtyChange?: (dirty: boolean) => void
}) {
  const [content, setContent] = useState(initial.content)
  const [color, setColor] = useState<NoteColor>(initial.color)
  const dirty = content !== initial.content || (color !== initial.color && content.trim() !== '')
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange])
  useEffect(() => () => onDirtyChange?.(false), [onDirtyChange])
  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault()
        onSubmit({ content, color })
      }}
    >
      <Textarea
        aria-label="Note"
        name="content"
        rows={8}
        autoFocus
        value={content}
        onChange={(e) => setContent(e.target.value)}
        placeholder="Write a note for this page…"
        aria-invalid={Boolean(error)}
        className={cn('resize-y text-[13px] leading-relaxed', NOTE_COLOR_CLASSES[color].card)}
      />
      {error ? (
        <p role="alert" className="text-xs text-destructive">
          {error}
        </p>
      ) : null}
      <div className="flex items-center justify-between gap-2">
        <NoteColorPicker value={color} onChange={setColor} />
        <div className="flex gap-2">
          <Button type="button" variant="outline" size="sm" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" size="sm" disabled={busy}>
            {submitLabel}
          </Button>
        </div>
      </div>
    </form>
  )
}

/** Edit, archive, unarchive and delete buttons, each shown only when the note's flag allows it. */
export function NoteActionButtons({
  note,
  busy,
  onEdit,
  onAction,
  compact,
}: {
  note: Pick<NoteItem, 'canUpdate' | 'canArchive' | 'canUnarchive' | 'canDelete'>
  busy: boolean
  onEdit?: () => void
  onAction: (intent: 'archive' | 'unarchive' | 'delete') => void
  compact?: boolean
}) {
  const [confirmDelete, setConfirmDelete] = useState(false)
  const size = compact ? 'icon' : 'sm'
  const label = (text: string) => (compact ? <span className="sr-only">{text}</span> : text)
  return (
    <div className="flex items-center gap-1">
      {note.canUpdate && onEdit ? (
        <Button variant="ghost" size={size} className={compact ? 'size-7' : undefined} onClick={onEdit} title="Edit" disabled={busy}>
          <Pencil />
          {label('Edit')}
        </Button>
      ) : null}
      {note.canArchive ? (
        <Button variant="ghost" size={size} className={compact ? 'size-7' : undefined} onClick={() => onAction('archive')} title="Archive" disabled={busy}>
          <Archive />
          {label('Archive')}
        </Button>
      ) : null}
      {note.canUnarchive ? (
        <Button variant="ghost" size={size} className={compact ? 'size-7' : undefined} onClick={() => onAction('unarchive')} title="Unarchive" disabled={busy}>
          <ArchiveRestore />
          {label('Unarchive')}
        </Button>
      ) : null}
      {note.canDelete ? (
        <Button
          variant="ghost"
          size={size}
          className={cn('text-destructive hover:text-destructive', compact && 'size-7')}
          onClick={() => setConfirmDelete(true)}
          title="Delete"
          disabled={busy}
        >
          <Trash2 />
          {label('Delete')}
        </Button>
      ) : null}
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title="Delete Note"
        text="Are you sure you want to delete this note?"
        confirmLabel="Delete"
        destructive
        busy={busy}
        onConfirm={() => {
          setConfirmDelete(false)
          onAction('delete')
        }}
      />
    </div>
  )
}
