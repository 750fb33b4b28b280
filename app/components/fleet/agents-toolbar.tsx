import { useFetcher } from '@remix-run/react'
import { type Table, type VisibilityState } from '@tanstack/react-table'
import { Download, Settings2, X } from 'lucide-react'
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { COLUMN_LABELS, CONNECTED_VALUES, type ColumnFilter, FACETS, type SortableColumn, parseFilters } from '~/domain/fleet/agents-table-state'
import type { AgentTableRow, FacetOption } from '~/domain/fleet/agents-table.server'
import { useDebouncedCallback } from '~/utils/use-debounced-callback'
import { Button } from '../ui/button'
import { ClosedMenuTrigger, DropdownMenu, DropdownMenuCheckboxItem, DropdownMenuContent, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '../ui/dropdown-menu'
import { Input } from '../ui/input'
import { FacetedFilter } from './faceted-filter'
import { SavedViewsMenu } from './saved-views-menu'
import { ClosedSwitch, Switch, TOOLBAR_TRIGGER_CLASS } from './popover'
import { useAfterHydration } from '../ui/after-hydration'
import { encodeOrNull, type UpdateTableParams } from './use-table-params'

const FACET_TITLES: Record<(typeof FACETS)[number], string> = { product: 'Product', version: 'Version', connected: 'Connected', input: 'Input' }
const NAME_DEBOUNCE_MS = 300
const FACETS_DELAY_MS = 500
// the facets' fallbacks as constants, so the memoized filters keep their props between renders
const NO_VALUES: string[] = []
const NO_OPTIONS: FacetOption[] = []
const CONNECTED_OPTIONS = CONNECTED_VALUES.map((value) => ({ value })) as FacetOption[]

/**
 * The toolbar above the agents list: the name filter (applied 300 ms after the last keystroke,
 * Escape clears it), the facet menus with their options' counts, Reset, and on the right Live Sort,
 * the saved views, Export CSV (of the filtered, sorted list with its columns) and the View menu that toggles columns.
 */
export function AgentsToolbar({
  organizationId,
  tableData,
  table,
  params,
  filters,
  update,
  columnVisibility,
  liveSort,
  onLiveSortChange,
}: {
  organizationId: string
  /** the list's loader data: a change (live update) makes the filter options stale */
  tableData: unknown
  table: Table<AgentTableRow>
  params: URLSearchParams
  filters: ColumnFilter[]
  update: UpdateTableParams
  /** what the View menu's checkboxes show (the table instance itself never changes) */
  columnVisibility: VisibilityState
  liveSort: boolean
  onLiveSortChange: (on: boolean) => void
}) {
  const nameFilter = (filters.find((f) => f.id === 'name')?.value as string | undefined) ?? ''
  const [nameText, setNameText] = useState(nameFilter)
  useEffect(() => setNameText(nameFilter), [nameFilter])

  const setFilter = useCallback(
    (id: ColumnFilter['id'], value: string | string[]) =>
      update((prev) => {
        const next = [...parseFilters(prev.get('filters')).filter((f) => f.id !== id), { id, value } as ColumnFilter]
        return { filters: encodeOrNull(next.filter((f) => (Array.isArray(f.value) ? f.value.length : f.value))) }
      }, true),
    [update],
  )
  // one stable handler per facet: the toolbar renders on every router update (its fetcher), the filters do not
  const facetChange = useMemo(() => Object.fromEntries(FACETS.map((id) => [id, (values: string[]) => setFilter(id, values)])), [setFilter])
  const applyName = useDebouncedCallback((value: string) => setFilter('name', value.trim()), NAME_DEBOUNCE_MS)
  const facetValues = (id: string) => (filters.find((f) => f.id === id)?.value as string[] | undefined) ?? NO_VALUES

  // Filter options load 500 ms after mount (spec 02 section 2). A live update of the table marks
  // them stale, and they reload when a filter opens (or at once when one is open): reloading on every
  // live update added two router updates per reload, each rendering every route component again.
  const facetsFetcher = useFetcher<{ facets: Record<string, FacetOption[]> }>()
  const facetsLoad = facetsFetcher.load
  const facetsUrl = `/resources/agent-facets?organizationId=${organizationId}`
  const facets = useRef({ requested: false, stale: false, open: 0 })
  useEffect(() => {
    const timer = setTimeout(() => {
      facets.current.requested = true
      facetsLoad(facetsUrl)
    }, FACETS_DELAY_MS)
    return () => clearTimeout(timer)
  }, [facetsLoad, facetsUrl])
  const shownData = useRef(tableData)
  useEffect(() => {
    if (shownData.current === tableData) return
    shownData.current = tableData
    if (!facets.current.requested) return
    if (facets.current.open) facetsLoad(facetsUrl)
    else facets.current.stale = true
  }, [tableData, facetsLoad, facetsUrl])
  const onFacetOpenChange = useCallback(
    (open: boolean) => {
      facets.current.open += open ? 1 : -1
      if (open && facets.current.stale) {
        facets.current.stale = false
        facetsLoad(facetsUrl)
      }
    },
    [facetsLoad, facetsUrl],
  )
  const facetOptions = (id: (typeof FACETS)[number]): FacetOption[] => facetsFetcher.data?.facets[id] ?? (id === 'connected' ? CONNECTED_OPTIONS : NO_OPTIONS)

  const filtered = filters.length > 0
  const live = useAfterHydration()
  const exportHref = `/resources/agents-csv?${new URLSearchParams({ organizationId, ...Object.fromEntries(['filters', 'sorting', 'columns'].flatMap((k) => (params.get(k) ? [[k, params.get(k)!]] : []))) })}`

  return (
    <div className="flex flex-wrap items-center gap-2">
      <Input
        aria-label="Filter by name"
        placeholder="Filter agents..."
        className="h-8 w-56"
        value={nameText}
        onChange={(e) => {
          setNameText(e.target.value)
          applyName(e.target.value)
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            setNameText('')
            applyName('')
          }
        }}
      />
      {FACETS.map((id) => (
        <FacetedFilter
          key={id}
          title={FACET_TITLES[id]}
          options={facetOptions(id)}
          loading={id !== 'connected' && !facetsFetcher.data}
          selected={facetValues(id)}
          onChange={facetChange[id]!}
          onOpenChange={onFacetOpenChange}
        />
      ))}
      {filtered ? (
        <Button variant="ghost" size="sm" className="h-8" onClick={() => { applyName.cancel(); setNameText(''); update({ filters: null }, true) }}>
          Reset <X />
        </Button>
      ) : null}
      <div className="ml-auto flex items-center gap-3">
        <label className="flex items-center gap-1.5 text-xs text-muted-foreground">
          {live ? <Switch checked={liveSort} onCheckedChange={onLiveSortChange} aria-label="Live Sort" /> : <ClosedSwitch checked={liveSort} label="Live Sort" />}
          Live Sort
        </label>
        <SavedViewsMenu organizationId={organizationId} params={params} update={update} />
        <Button asChild variant="outline" size="sm" className="h-8">
          <a href={exportHref} download>
            <Download /> Export CSV
          </a>
        </Button>
        <ColumnsMenu table={table} columnVisibility={columnVisibility} />
      </div>
    </div>
  )
}

/** The View menu that toggles columns; memoized, it renders again only when the visible columns change. */
const ColumnsMenu = memo(function ColumnsMenu({ table }: { table: Table<AgentTableRow>; columnVisibility: VisibilityState }) {
  const live = useAfterHydration()
  const face = (
    <>
      <Settings2 /> View
    </>
  )
  if (!live) return <ClosedMenuTrigger className={TOOLBAR_TRIGGER_CLASS}>{face}</ClosedMenuTrigger>
  return (
    <DropdownMenu>
      <DropdownMenuTrigger className={TOOLBAR_TRIGGER_CLASS}>{face}</DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>Toggle columns</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {table
          .getAllLeafColumns()
          .filter((c) => c.getCanHide())
          .map((c) => (
            <DropdownMenuCheckboxItem key={c.id} checked={c.getIsVisible()} onCheckedChange={(v) => c.toggleVisibility(Boolean(v))} onSelect={(e) => e.preventDefault()}>
              {COLUMN_LABELS[c.id as SortableColumn]}
            </DropdownMenuCheckboxItem>
          ))}
      </DropdownMenuContent>
    </DropdownMenu>
  )
})
