import { Link, useLocation } from '@remix-run/react'
import { type ColumnDef } from '@tanstack/react-table'
import { ChevronDown, ChevronRight, ExternalLink, Trash2 } from 'lucide-react'
import { useMemo, useState } from 'react'
import { COLUMN_LABELS, type SortableColumn } from '~/domain/fleet/agents-table-state'
import type { AgentTableRow } from '~/domain/fleet/agents-table.server'
import { cn } from '~/utils/cn'
import { plainIcon } from '../shell/plain-icon'
import { buttonVariants } from '../ui/button'
import { type useAgentSelection } from './bulk-bar'
import { LastSeen, type LastSeenMode, nextLastSeenMode } from './last-seen'
import { ConnectionIcon, HealthCell, RemoteConnect, portalLink } from './status'

const header = (id: SortableColumn) => COLUMN_LABELS[id]

// The row actions as plain elements with the ghost icon button's classes, computed once, and their
// tooltips as `data-tip` for the table's TooltipHost: no Button, Slot or Tooltip component per row
// to hydrate (the same DOM as `<Tooltip><Button asChild>` inside a TooltipHost).
const ROW_ICON_BUTTON = cn(buttonVariants({ variant: 'ghost', size: 'icon' }), 'size-7')
const ROW_REMOVE_BUTTON = cn(ROW_ICON_BUTTON, 'text-muted-foreground hover:text-destructive')

/**
 * What each column's cell shows of its agent (agent-row-view.tsx re-renders a cell only when one of
 * these changed): a live reload that moves an agent's Last Seen re-renders that one cell, not its row.
 * Keep in step with the cells below; a column without an entry re-renders with any change of its agent.
 */
export const CELL_READS: Record<string, (r: AgentTableRow) => unknown[]> = {
  select: (r) => [r.id, r.name],
  expand: () => [],
  id: (r) => [r.id],
  connected: (r) => [r.isConnected, r.lastSeen === null],
  name: (r) => [r.id, r.name],
  health: (r) => [r.alertsCount, r.alertsSeverity, r.deviationsCount, r.deviationsSeverity, r.weightedAlertsScore],
  serial: (r) => [r.serial],
  systemsCount: (r) => [r.systemsTotal, r.systemsAssigned],
  systemsTotal: (r) => [r.systemsTotal],
  systemsAssigned: (r) => [r.systemsAssigned],
  systemsAvailable: (r) => [r.systemsAvailable],
  product: (r) => [r.product],
  version: (r) => [r.version],
  lastSeen: (r) => [r.lastSeen],
  remoteConnect: (r) => [r.id, r.isConnected, r.isTunnelConnected, r.canConnect, r.remoteConnectionState, r.tunnelStatusMessage],
  actions: (r) => [r.id, r.name, r.isConnected, r.isTunnelConnected, r.canConnect],
}

/**
 * The agents list's columns: selection and expansion first, then the data columns (their ids are
 * the table-state's column ids), then the row actions (open the remote portal, remove).
 */
export function useAgentsColumns({
  organizationId,
  canDelete,
  bulk,
  pageIds,
  onRemove,
}: {
  organizationId: string
  canDelete: boolean
  bulk: ReturnType<typeof useAgentSelection>
  /** the rows shown, in order: 'Select all on this page' ticks these */
  pageIds: string[]
  onRemove: (agent: AgentTableRow) => void
}) {
  const location = useLocation()
  const [lastSeenMode, setLastSeenMode] = useState<LastSeenMode>('relative')
  const pageAllSelected = pageIds.length > 0 && pageIds.every(bulk.isSelected)
  return useMemo<ColumnDef<AgentTableRow>[]>(
    () => [
      {
        id: 'select',
        enableSorting: false,
        enableHiding: false,
        header: () => (
          <input type="checkbox" className="size-3.5 align-middle accent-primary" aria-label="Select all on this page" checked={pageAllSelected} onChange={(e) => bulk.togglePage(pageIds, e.target.checked)} />
        ),
        cell: ({ row }) => (
          <input type="checkbox" className="size-3.5 align-middle accent-primary" aria-label={`Select ${row.original.name}`} checked={bulk.isSelected(row.original.id)} onChange={(e) => bulk.toggle(row.original.id, e.target.checked)} />
        ),
      },
      {
        id: 'expand',
        enableSorting: false,
        enableHiding: false,
        header: () => null,
        cell: ({ row }) => (
          <button
            type="button"
            aria-label={row.getIsExpanded() ? 'Collapse row' : 'Expand row'}
            aria-expanded={row.getIsExpanded()}
            className="rounded p-0.5 text-muted-foreground hover:bg-accent"
            onClick={row.getToggleExpandedHandler()}
          >
            {plainIcon(row.getIsExpanded() ? ChevronDown : ChevronRight, 'size-4')}
          </button>
        ),
      },
      { id: 'id', accessorKey: 'id', header: header('id'), cell: ({ row }) => <span className="font-mono text-xs">{row.original.id}</span> },
      {
        id: 'connected',
        header: header('connected'),
        cell: ({ row }) => <ConnectionIcon connected={row.original.isConnected} unknown={!row.original.lastSeen} />,
      },
      {
        id: 'name',
        header: header('name'),
        cell: ({ row }) => (
          <span className="flex items-center gap-2">
            <Link to={`/organization/${organizationId}/agents/${row.original.id}`} className="font-medium hover:underline">
              {row.original.name}
            </Link>
          </span>
        ),
      },
      {
        id: 'health',
        header: header('health'),
        cell: ({ row }) => (
          <span className="flex items-center gap-2">
            <HealthCell {...row.original} />
            {row.original.weightedAlertsScore ? (
              <span className="font-mono text-[11px] text-muted-foreground" data-testid="health-score" data-tip="Weighted alerts score: alert count ^ (6 - worst severity), plus the same for deviations">
                {row.original.weightedAlertsScore}
              </span>
            ) : null}
          </span>
        ),
      },
      { id: 'serial', header: header('serial'), cell: ({ row }) => <span className="font-mono text-xs">{row.original.serial}</span> },
      {
        id: 'systemsCount',
        header: header('systemsCount'),
        cell: ({ row }) => {
          const r = row.original
          return r.systemsTotal ? (
            <span className={cn('font-mono text-xs', r.systemsAssigned < r.systemsTotal && 'text-amber-700')}>
              {r.systemsAssigned}/{r.systemsTotal}
            </span>
          ) : (
            <span className="text-xs text-muted-foreground">(none)</span>
          )
        },
      },
      { id: 'systemsTotal', header: header('systemsTotal'), cell: ({ row }) => row.original.systemsTotal },
      { id: 'systemsAssigned', header: header('systemsAssigned'), cell: ({ row }) => row.original.systemsAssigned },
      { id: 'systemsAvailable', header: header('systemsAvailable'), cell: ({ row }) => row.original.systemsAvailable },
      { id: 'product', header: header('product'), cell: ({ row }) => row.original.product },
      { id: 'version', header: header('version'), cell: ({ row }) => <span className="font-mono text-xs">{row.original.version}</span> },
      {
        id: 'lastSeen',
        header: header('lastSeen'),
        cell: ({ row }) => <LastSeen value={row.original.lastSeen} mode={lastSeenMode} onCycle={() => setLastSeenMode(nextLastSeenMode)} />,
      },
      {
        id: 'remoteConnect',
        header: header('remoteConnect'),
        cell: ({ row }) => <RemoteConnect organizationId={organizationId} agent={row.original} canConnect={row.original.canConnect} />,
      },
      {
        id: 'actions',
        enableSorting: false,
        enableHiding: false,
        header: () => <span className="sr-only">Actions</span>,
        cell: ({ row }) => (
          <span className="flex justify-end gap-0.5">
            {row.original.isConnected && row.original.isTunnelConnected && row.original.canConnect ? (
              <Link to={portalLink(organizationId, row.original.id, location.pathname + location.search)} className={ROW_ICON_BUTTON} aria-label={`Open portal of ${row.original.name}`} data-tip="Open remote portal">
                {plainIcon(ExternalLink)}
              </Link>
            ) : null}
            {canDelete ? (
              <button type="button" className={ROW_REMOVE_BUTTON} aria-label={`Remove ${row.original.name}`} data-tip="Remove agent" onClick={() => onRemove(row.original)}>
                {plainIcon(Trash2)}
              </button>
            ) : null}
          </span>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the selection's state is read through `bulk`, which changes with it
    [organizationId, lastSeenMode, canDelete, location.pathname, location.search, bulk.selection, pageAllSelected, pageIds, onRemove],
  )
}
