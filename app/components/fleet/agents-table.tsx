import { useFetcher } from '@remix-run/react'
import { type ColumnFiltersState, type ExpandedState, type SortingState, type VisibilityState, getCoreRowModel, useReactTable } from '@tanstack/react-table'
import { memo, useEffect, useMemo, useState } from 'react'
import { toast } from 'sonner'
import { HIDDEN_BY_DEFAULT, parseColumns, parseExpanded, parseFilters, parseSorting } from '~/domain/fleet/agents-table-state'
import type { AgentTableRow } from '~/domain/fleet/agents-table.server'
import { Button } from '../ui/button'
import { ConfirmDialog } from '../ui/dialog'
import { TooltipHost } from '../ui/delegated-tooltip'
import { AgentRowView } from './agent-row-view'
import { useAgentsColumns } from './agents-columns'
import { AgentsPager } from './agents-pager'
import { AgentsTableHead } from './agents-table-head'
import { AgentsToolbar } from './agents-toolbar'
import { BulkBar, useAgentSelection } from './bulk-bar'
import { useSharedRows } from './use-shared-rows'
import { useRowsOnServer } from '~/components/ui/rows-on-server'
import { useStableOrder } from './use-stable-order'
import { encodeOrNull, useTableParams } from './use-table-params'

export type AgentsTableData = {
  rows: AgentTableRow[]
  total: number
  page: number
  pageCount: number
  limit: number
  assignableProjects: { id: string; name: string }[]
  canUnassign: boolean
}

/**
 * The agents list (spec 02 section 2). Server-driven: filters, sorting and paging live in the URL
 * and the loader applies them in the database; TanStack Table runs in manual mode.
 * The parts: use-table-params.ts (the URL state), agents-toolbar.tsx, bulk-bar.tsx,
 * agents-columns.tsx, agents-table-head.tsx, agent-row-view.tsx and agents-pager.tsx.
 * Memoized: the page renders on every router update, the table only when its data or props change.
 */
export const AgentsTable = memo(function AgentsTable({
  organization,
  data,
  canDelete,
  canAssign,
}: {
  organization: { id: string; name: string }
  data: AgentsTableData
  canDelete: boolean
  canAssign: boolean
}) {
  const { params, update } = useTableParams()
  const filters = useMemo(() => parseFilters(params.get('filters')), [params])
  const sorting = useMemo(() => parseSorting(params.get('sorting')), [params])
  const expanded = useMemo(() => parseExpanded(params.get('expanded')), [params])
  const columnChoices = useMemo(() => parseColumns(params.get('columns')), [params])
  const columnVisibility: VisibilityState = useMemo(
    () => ({ ...Object.fromEntries(HIDDEN_BY_DEFAULT.map((c) => [c, false])), ...columnChoices }),
    [columnChoices],
  )

  const [liveSort, setLiveSort] = useState(false)
  const [removing, setRemoving] = useState<AgentTableRow | null>(null)
  const removeFetcher = useFetcher<{ ok: boolean; message?: string }>()
  useEffect(() => {
    if (removeFetcher.state !== 'idle' || !removeFetcher.data) return
    if (removeFetcher.data.ok) {
      toast.success(removeFetcher.data.message ?? 'Agent removed')
      setRemoving(null)
    } else toast.error(removeFetcher.data.message ?? 'An unrecognized error has occurred')
  }, [removeFetcher.state, removeFetcher.data])

  const urlKey = [params.get('page'), params.get('limit'), params.get('filters'), params.get('sorting')].join('|')
  // unchanged agents keep their objects across live reloads: their memoized rows skip rendering
  const rows = useStableOrder(useSharedRows(data.rows), urlKey, liveSort)

  const bulk = useAgentSelection()
  // the same array while the page shows the same agents: the columns (and so every cell) depend on it
  const pageIdsKey = rows.map((r) => r.id).join('\n')
  const pageIds = useMemo(() => (pageIdsKey ? pageIdsKey.split('\n') : []), [pageIdsKey])
  const columns = useAgentsColumns({ organizationId: organization.id, canDelete, bulk, pageIds, onRemove: setRemoving })

  const table = useReactTable({
    data: rows,
    columns,
    getRowId: (row) => row.id,
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    manualSorting: true,
    manualFiltering: true,
    enableMultiSort: true,
    isMultiSortEvent: () => true,
    pageCount: data.pageCount,
    rowCount: data.total,
    state: {
      sorting: sorting as SortingState,
      columnFilters: filters as ColumnFiltersState,
      expanded: expanded as ExpandedState,
      columnVisibility,
      pagination: { pageIndex: data.page - 1, pageSize: data.limit },
    },
    getRowCanExpand: () => true,
    onSortingChange: (updater) =>
      update((prev) => ({ sorting: encodeOrNull(typeof updater === 'function' ? updater(parseSorting(prev.get('sorting'))) : updater) })),
    onExpandedChange: (updater) =>
      update((prev) => {
        const next = typeof updater === 'function' ? updater(parseExpanded(prev.get('expanded'))) : updater
        const trimmed = next === true ? Object.fromEntries(rows.map((r) => [r.id, true])) : Object.fromEntries(Object.entries(next).filter(([, v]) => v))
        return { expanded: encodeOrNull(trimmed) }
      }),
    onColumnVisibilityChange: (updater) =>
      update((prev) => {
        const current = { ...Object.fromEntries(HIDDEN_BY_DEFAULT.map((c) => [c, false])), ...parseColumns(prev.get('columns')) }
        const next = typeof updater === 'function' ? updater(current) : updater
        // only differences from the defaults go into the URL
        const diff = Object.fromEntries(Object.entries(next).filter(([id, visible]) => visible !== !(HIDDEN_BY_DEFAULT as readonly string[]).includes(id)))
        return { columns: encodeOrNull(diff) }
      }),
  })

  // The rows re-render only when what they show changes, not when the filter options arrive or the
  // toolbar changes: 25-100 rows with tooltips and menus cost a long task on a phone (docs/benchmarks.md).
  const bodyRows = useRowsOnServer(table.getRowModel().rows)
  // the pager comes with the last rows: shown under the first ones, it would jump down once the rest render
  const rowsCut = bodyRows.length < table.getRowModel().rows.length
  const visibleColumnCount = table.getVisibleLeafColumns().length
  const body = useMemo(
    () => (
      <tbody>
        {bodyRows.length ? (
          bodyRows.map((row) => (
            <AgentRowView
              key={row.id}
              row={row}
              expanded={row.getIsExpanded()}
              columns={columns}
              columnVisibility={columnVisibility}
              organizationId={organization.id}
              projects={data.assignableProjects}
              canUnassign={data.canUnassign}
              canAssign={canAssign}
              colSpan={row.getVisibleCells().length}
            />
          ))
        ) : (
          <tr>
            <td colSpan={visibleColumnCount} className="h-24 text-center text-muted-foreground">
              No results.
            </td>
          </tr>
        )}
      </tbody>
    ),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the cells read columns, visibility and expansion through the table's rows
    [bodyRows, columns, columnVisibility, expanded, visibleColumnCount, organization.id, data.assignableProjects, data.canUnassign, canAssign],
  )
  const expandedCount = Object.keys(expanded).length

  return (
    <div className="flex flex-col gap-2">
      <AgentsToolbar
        organizationId={organization.id}
        tableData={data}
        table={table}
        params={params}
        filters={filters}
        update={update}
        columnVisibility={columnVisibility}
        liveSort={liveSort}
        onLiveSortChange={setLiveSort}
      />

      <BulkBar
        organizationId={organization.id}
        state={bulk}
        total={data.total}
        pageIds={pageIds}
        projects={data.assignableProjects}
        canUnassign={data.canUnassign}
        canAssign={canAssign}
        canDelete={canDelete}
      />

      {sorting.length || expandedCount ? (
        <div className="flex flex-wrap items-center gap-4 text-xs text-muted-foreground">
          {sorting.length ? (
            <span className="flex items-center gap-1">
              Sorting by {sorting.length} column(s)
              <Button variant="link" size="sm" className="h-auto p-0 text-xs" onClick={() => update({ sorting: null })}>
                Clear
              </Button>
            </span>
          ) : null}
          {expandedCount ? (
            <span className="flex items-center gap-1">
              {expandedCount} Expanded row(s)
              <Button variant="link" size="sm" className="h-auto p-0 text-xs" onClick={() => update({ expanded: null })}>
                Collapse all
              </Button>
            </span>
          ) : null}
        </div>
      ) : null}

      <TooltipHost className="relative overflow-x-auto rounded-lg border bg-card">
        <table className="w-full text-[13px]">
          <AgentsTableHead table={table} sorting={sorting} update={update} columns={columns} columnVisibility={columnVisibility} />
          {body}
        </table>
      </TooltipHost>

      {rowsCut ? null : <AgentsPager total={data.total} page={data.page} pageCount={data.pageCount} limit={data.limit} update={update} />}

      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title="Remove Agent"
        text={`Are you sure you want to remove ${removing?.name ?? ''}?`}
        confirmLabel="Remove"
        cancelLabel="Cancel"
        destructive
        busy={removeFetcher.state !== 'idle'}
        onConfirm={() =>
          removing && removeFetcher.submit({ intent: 'remove', organizationId: organization.id, agentId: removing.id }, { method: 'post', action: '/resources/agent-actions' })
        }
      />
    </div>
  )
})
