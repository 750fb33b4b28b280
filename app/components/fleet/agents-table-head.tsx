import { type ColumnDef, type Table, type VisibilityState, flexRender } from '@tanstack/react-table'
import { memo, useLayoutEffect, useRef, useState, type ReactNode } from 'react'
import { ArrowDown, ArrowUp, ArrowUpDown, EyeOff } from 'lucide-react'
import { COLUMN_LABELS, SORTABLE_COLUMNS, type SortableColumn, type Sorting, parseSorting } from '~/domain/fleet/agents-table-state'
import type { AgentTableRow } from '~/domain/fleet/agents-table.server'
import { cn } from '~/utils/cn'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from '../ui/dropdown-menu'
import { encodeOrNull, type UpdateTableParams } from './use-table-params'

/**
 * The agents list's header row. A sortable column's header opens a menu (Asc, Desc, Hide) and
 * shows its direction, and its position among the sort keys when there are several.
 * Memoized: its twelve menus render again only when the sorting, the columns (their definitions
 * carry the 'select all' state) or their visibility change, not on every live reload.
 */
export const AgentsTableHead = memo(function AgentsTableHead({
  table,
  sorting,
  update,
}: {
  table: Table<AgentTableRow>
  sorting: Sorting
  update: UpdateTableParams
  /** not read here (the table instance is): a change of these renders the header again */
  columns: ColumnDef<AgentTableRow>[]
  columnVisibility: VisibilityState
}) {
  /** Asc/Desc from a header menu: changes that column's direction, or adds it as the next sort key. */
  const setSort = (id: SortableColumn, desc: boolean) =>
    update((prev) => {
      const current = parseSorting(prev.get('sorting'))
      const next = current.some((s) => s.id === id) ? current.map((s) => (s.id === id ? { id, desc } : s)) : [...current, { id, desc }]
      return { sorting: encodeOrNull(next) }
    })

  return (
    <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
      {table.getHeaderGroups().map((group) => (
        <tr key={group.id}>
          {group.headers.map((h) => {
            const id = h.column.id as SortableColumn
            const sortable = (SORTABLE_COLUMNS as readonly string[]).includes(id)
            const sorted = sorting.find((s) => s.id === id)
            const position = sorting.findIndex((s) => s.id === id)
            return (
              <th key={h.id} className={cn('h-9 whitespace-nowrap px-2 font-medium', (h.column.id === 'expand' || h.column.id === 'select') && 'w-8')} aria-sort={sorted ? (sorted.desc ? 'descending' : 'ascending') : sortable ? 'none' : undefined}>
                {sortable ? (
                  <SortMenu
                    face={
                      <>
                        {COLUMN_LABELS[id]}
                        {sorted ? sorted.desc ? <ArrowDown className="size-3.5" /> : <ArrowUp className="size-3.5" /> : <ArrowUpDown className="size-3.5 opacity-50" />}
                        {sorted && sorting.length > 1 ? <span className="text-[10px]">{position + 1}</span> : null}
                      </>
                    }
                    onSort={(desc) => setSort(id, desc)}
                    onHide={() => h.column.toggleVisibility(false)}
                  />
                ) : (
                  flexRender(h.column.columnDef.header, h.getContext())
                )}
              </th>
            )
          })}
        </tr>
      ))}
    </thead>
  )
})

const TRIGGER_CLASS = '-ml-1.5 inline-flex items-center gap-1 rounded px-1.5 py-1 hover:bg-accent hover:text-foreground'

/**
 * A sortable header's menu (Asc, Desc, Hide). Until the header is first hovered, focused or
 * pressed it is a plain button that looks and reads like the closed Radix trigger (same role,
 * aria-haspopup, aria-expanded and data-state); the Radix menu root mounts then. Twelve menu roots
 * were a fifth of the list's hydration and of each re-render of its header (docs/benchmarks.md).
 */
function SortMenu({ face, onSort, onHide }: { face: ReactNode; onSort: (desc: boolean) => void; onHide: () => void }) {
  const [mounted, setMounted] = useState<false | 'closed' | 'open'>(false)
  const trigger = useRef<HTMLButtonElement>(null)
  // arming on focus swaps the button: the new one takes the focus over
  const refocus = useRef(false)
  useLayoutEffect(() => {
    if (mounted && refocus.current) {
      refocus.current = false
      trigger.current?.focus()
    }
  }, [mounted])
  if (!mounted)
    return (
      <button
        type="button"
        aria-haspopup="menu"
        aria-expanded={false}
        data-state="closed"
        className={TRIGGER_CLASS}
        onPointerEnter={() => setMounted('closed')}
        onFocus={() => {
          refocus.current = true
          setMounted('closed')
        }}
        onPointerDown={(e) => {
          if (e.button === 0 && !e.ctrlKey) setMounted('open')
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ' || e.key === 'ArrowDown') {
            e.preventDefault()
            refocus.current = true
            setMounted('open')
          }
        }}
      >
        {face}
      </button>
    )
  return (
    <DropdownMenu defaultOpen={mounted === 'open'}>
      <DropdownMenuTrigger asChild>
        <button ref={trigger} type="button" className={TRIGGER_CLASS}>
          {face}
        </button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start">
        <DropdownMenuItem onSelect={() => onSort(false)}>
          <ArrowUp /> Asc
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => onSort(true)}>
          <ArrowDown /> Desc
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={onHide}>
          <EyeOff /> Hide
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
