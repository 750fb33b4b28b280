import { useRevalidator, useSearchParams } from '@remix-run/react'
import { Download, FolderInput, Trash2, X } from 'lucide-react'
import { useEffect, useMemo, useRef, useState } from 'react'
import { toast } from 'sonner'
import { filtersToQuery, parseFilters } from '~/domain/fleet/agents-table-state'
import type { BulkSelection, BulkSummary } from '~/domain/fleet/bulk.server'
import { Alert } from '../ui/alert'
import { Button } from '../ui/button'
import { ConfirmDialog } from '../ui/dialog'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '../ui/dropdown-menu'
import { formatCount } from '~/utils/format-time'

/** Ticked agents of the list, or 'every agent matching the filters' (resolved on the server). */
export type AgentSelection = { mode: 'ids'; ids: Set<string> } | { mode: 'filtered' }

/** Selection state of the agents list; it is cleared when the filters change (a new set of agents). */
export function useAgentSelection() {
  const [params] = useSearchParams()
  const filters = params.get('filters') ?? ''
  const [selection, setSelection] = useState<AgentSelection>({ mode: 'ids', ids: new Set() })
  // a new filter clears the selection; not on mount, where a new empty selection would re-render every row after hydration
  const selectedFilters = useRef(filters)
  useEffect(() => {
    if (selectedFilters.current === filters) return
    selectedFilters.current = filters
    setSelection({ mode: 'ids', ids: new Set() })
  }, [filters])
  const isSelected = (id: string) => selection.mode === 'filtered' || selection.ids.has(id)
  const toggle = (id: string, on: boolean) =>
    setSelection((s) => {
      const ids = new Set(s.mode === 'ids' ? s.ids : [])
      if (on) ids.add(id)
      else ids.delete(id)
      return { mode: 'ids', ids }
    })
  const togglePage = (pageIds: string[], on: boolean) =>
    setSelection((s) => {
      const ids = new Set(s.mode === 'ids' ? s.ids : [])
      for (const id of pageIds) if (on) ids.add(id)
      else ids.delete(id)
      return { mode: 'ids', ids }
    })
  const clear = () => setSelection({ mode: 'ids', ids: new Set() })
  return { selection, setSelection, isSelected, toggle, togglePage, clear, filters }
}

type Progress = { processed: number; total: number }

/**
 * The bulk bar above the agents list: how many are selected, 'Select all N filtered', and the bulk
 * actions (assign the agents' systems to a project, export CSV, remove with a confirmation). Long
 * operations stream their progress (a progress bar) and end with a summary.
 */
export function BulkBar({
  organizationId,
  state,
  total,
  pageIds,
  projects,
  canUnassign,
  canAssign,
  canDelete,
}: {
  organizationId: string
  state: ReturnType<typeof useAgentSelection>
  total: number
  pageIds: string[]
  projects: { id: string; name: string }[]
  canUnassign: boolean
  canAssign: boolean
  canDelete: boolean
}) {
  const { selection, setSelection, clear, filters } = state
  const [params] = useSearchParams()
  const { revalidate } = useRevalidator()
  const [progress, setProgress] = useState<Progress | null>(null)
  const [summary, setSummary] = useState<BulkSummary | null>(null)
  const [confirmRemove, setConfirmRemove] = useState(false)
  const count = selection.mode === 'filtered' ? total : selection.ids.size
  const payloadSelection = useMemo<BulkSelection>(
    () => (selection.mode === 'filtered' ? { mode: 'filtered', filters: filtersToQuery(parseFilters(filters || null)) } : { mode: 'ids', ids: [...selection.ids] }),
    [selection, filters],
  )
  const pageAllSelected = selection.mode === 'ids' && pageIds.length > 0 && pageIds.every((id) => selection.ids.has(id))

  async function run(operation: 'assign' | 'remove', projectId?: string | null) {
    setSummary(null)
    setProgress({ processed: 0, total: count })
    try {
      const response = await fetch('/resources/agents-bulk', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ intent: 'run', organizationId, operation, projectId, selection: payloadSelection }),
      })
      if (!response.ok || !response.body) {
        const error = (await response.json().catch(() => null)) as { message?: string } | null
        throw new Error(error?.message ?? 'An unrecognized error has occurred')
      }
      // JSON lines: progress per chunk, then the summary
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
      let buffer = ''
      for (;;) {
        const { value, done } = await reader.read()
        if (done) break
        buffer += value
        const lines = buffer.split('\n')
        buffer = lines.pop() ?? ''
        for (const line of lines.filter(Boolean)) {
          const message = JSON.parse(line) as { progress?: Progress; summary?: BulkSummary; error?: string }
          if (message.progress) setProgress(message.progress)
          if (message.error) throw new Error(message.error)
          if (message.summary) {
            setSummary(message.summary)
            toast.success(message.summary.message)
          }
        }
      }
      clear()
    } catch (e) {
      toast.error((e as Error).message)
    } finally {
      setProgress(null)
      setConfirmRemove(false)
      revalidate()
    }
  }

  function exportCsv() {
    // a form post: the browser saves the response as a file (the selection can be thousands of ids)
    const form = document.createElement('form')
    form.method = 'post'
    form.action = '/resources/agents-bulk'
    const input = document.createElement('input')
    input.type = 'hidden'
    input.name = 'payload'
    input.value = JSON.stringify({ intent: 'export', organizationId, selection: payloadSelection, columns: params.get('columns') ?? undefined })
    form.append(input)
    document.body.append(form)
    form.submit()
    form.remove()
  }

  const busy = progress !== null
  if (!count && !summary && !busy) return null
  const percent = progress && progress.total ? Math.round((progress.processed / progress.total) * 100) : 0
  return (
    <div className="flex flex-col gap-2" data-testid="bulk-bar">
      {count || busy ? (
        <div className="flex flex-wrap items-center gap-2 rounded-md border bg-muted/40 px-3 py-1.5 text-xs">
          <span className="font-medium" data-testid="bulk-count">
            {selection.mode === 'filtered' ? `All ${formatCount(total)} filtered agent(s) selected` : `${formatCount(count)} selected`}
          </span>
          {pageAllSelected && total > count ? (
            <Button variant="link" size="sm" className="h-auto p-0 text-xs" onClick={() => setSelection({ mode: 'filtered' })}>
              Select all {formatCount(total)} filtered
            </Button>
          ) : null}
          <Button variant="link" size="sm" className="h-auto p-0 text-xs text-muted-foreground" onClick={clear} disabled={busy}>
            Clear selection
          </Button>
          <div className="ml-auto flex flex-wrap items-center gap-2">
            {canAssign ? (
              <DropdownMenu>
                <DropdownMenuTrigger asChild>
                  <Button variant="outline" size="sm" className="h-7" disabled={busy}>
                    <FolderInput /> Assign to project
                  </Button>
                </DropdownMenuTrigger>
                <DropdownMenuContent align="end" className="max-h-72 overflow-y-auto">
                  <DropdownMenuLabel>Assign the systems of {count} agent(s) to</DropdownMenuLabel>
                  <DropdownMenuSeparator />
                  {projects.map((p) => (
                    <DropdownMenuItem key={p.id} onSelect={() => run('assign', p.id)}>
                      {p.name}
                    </DropdownMenuItem>
                  ))}
                  {canUnassign ? <DropdownMenuItem onSelect={() => run('assign', null)}>(None)</DropdownMenuItem> : null}
                </DropdownMenuContent>
              </DropdownMenu>
            ) : null}
            <Button variant="outline" size="sm" className="h-7" onClick={exportCsv} disabled={busy}>
              <Download /> Export selection
            </Button>
            {canDelete ? (
              <Button variant="outline" size="sm" className="h-7 text-destructive hover:text-destructive" onClick={() => setConfirmRemove(true)} disabled={busy}>
                <Trash2 /> Remove
              </Button>
            ) : null}
          </div>
        </div>
      ) : null}
      {progress ? (
        <div className="flex items-center gap-3 text-xs text-muted-foreground" role="status">
          <div className="h-1.5 flex-1 overflow-hidden rounded bg-muted" role="progressbar" aria-label="Bulk operation progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
            <div className="h-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
          </div>
          <span className="tabular-nums">
            {formatCount(progress.processed)} of {formatCount(progress.total)}
          </span>
        </div>
      ) : null}
      {summary ? (
        <Alert type={summary.skipped.length ? 'warning' : 'success'} className="relative pr-10" title={summary.operation === 'assign' ? 'Assignment finished' : 'Removal finished'}>
          <span data-testid="bulk-summary">{summary.message}</span>
          <button type="button" aria-label="Dismiss summary" className="absolute right-2 top-2 rounded p-1 hover:bg-black/5" onClick={() => setSummary(null)}>
            <X className="size-3.5" />
          </button>
        </Alert>
      ) : null}
      <ConfirmDialog
        open={confirmRemove}
        onOpenChange={(open) => !busy && setConfirmRemove(open)}
        title="Remove Agents"
        text={`Are you sure you want to remove ${count} agent(s) from the organization? Their systems are unassigned; to come back, an agent must be enrolled again.`}
        confirmLabel={`Remove ${count} agent(s)`}
        cancelLabel="Cancel"
        destructive
        busy={busy}
        onConfirm={() => run('remove')}
      />
    </div>
  )
}
