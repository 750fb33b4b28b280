import { type Table, flexRender } from '@tanstack/react-table'
import { ArrowDown, ArrowUp, ArrowUpDown, EyeOff } from 'lucide-react'
import { COLUMN_LABELS, SORTABLE_COLUMNS, type SortableColumn, type Sorting, parseSorting } from '~/domain/fleet/agents-table-state'
import type { AgentTableRow } from '~/domain/fleet/agents-table.server'
import { cn } from '~/utils/cn'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from '../ui/dropdown-menu'
import { encodeOrNull, type UpdateTableParams } from './use-table-params'

/**
 * The agents list's header row. A sortable column's header opens a menu (Asc, Desc, Hide) and
 * shows its direction, and its position among the sort keys when there are several.
 */
export function AgentsTableHead({
  table,
  sorting,
  update,
}: {
  table: Table<AgentTableRow>
  sorting: Sorting
  update: UpdateTableParams
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
                  <DropdownMenu>
                    <DropdownMenuTrigger asChild>
                      <button type="button" className="-ml-1.5 inline-flex items-center gap-1 rounded px-1.5 py-1 hover:bg-accent hover:text-foreground">
                        {COLUMN_LABELS[id]}
                        {sorted ? sorted.desc ? <ArrowDown className="size-3.5" /> : <ArrowUp className="size-3.5" /> : <ArrowUpDown className="size-3.5 opacity-50" />}
                        {sorted && sorting.length > 1 ? <span className="text-[10px]">{position + 1}</span> : null}
                      </button>
                    </DropdownMenuTrigger>
                    <DropdownMenuContent align="start">
                      <DropdownMenuItem onSelect={() => setSort(id, false)}>
                        <ArrowUp /> Asc
                      </DropdownMenuItem>
                      <DropdownMenuItem onSelect={() => setSort(id, true)}>
                        <ArrowDown /> Desc
                      </DropdownMenuItem>
                      <DropdownMenuSeparator />
                      <DropdownMenuItem onSelect={() => h.column.toggleVisibility(false)}>
                        <EyeOff /> Hide
                      </DropdownMenuItem>
                    </DropdownMenuContent>
                  </DropdownMenu>
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
}
