import { Link, useLocation } from '@remix-run/react'
import { type ColumnDef } from '@tanstack/react-table'
import { ChevronDown, ChevronRight, ExternalLink, Trash2 } from 'lucide-react'
import { useMemo, useState } from 'react'
import { COLUMN_LABELS, type SortableColumn } from '~/domain/fleet/agents-table-state'
import type { AgentTableRow } from '~/domain/fleet/agents-table.server'
import { cn } from '~/utils/cn'
import { Button } from '../ui/button'
import { Tooltip } from '../ui/tooltip'
import { type useAgentSelection } from './bulk-bar'
import { LastSeen, type LastSeenMode, nextLastSeenMode } from './last-seen'
import { ConnectionIcon, HealthCell, RemoteConnect, portalLink } from './status'

const header = (id: SortableColumn) => COLUMN_LABELS[id]

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
            {row.getIsExpanded() ? <ChevronDown className="size-4" /> : <ChevronRight className="size-4" />}
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
              <Tooltip content="Weighted alerts score: alert count ^ (6 - worst severity), plus the same for deviations">
                <span className="font-mono text-[11px] text-muted-foreground" data-testid="health-score">
                  {row.original.weightedAlertsScore}
                </span>
              </Tooltip>
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
              <Tooltip content="Open remote portal">
                <Button asChild variant="ghost" size="icon" className="size-7">
                  <Link to={portalLink(organizationId, row.original.id, location.pathname + location.search)} aria-label={`Open portal of ${row.original.name}`}>
                    <ExternalLink />
                  </Link>
                </Button>
              </Tooltip>
            ) : null}
            {canDelete ? (
              <Tooltip content="Remove agent">
                <Button variant="ghost" size="icon" className="size-7 text-muted-foreground hover:text-destructive" aria-label={`Remove ${row.original.name}`} onClick={() => onRemove(row.original)}>
                  <Trash2 />
                </Button>
              </Tooltip>
            ) : null}
          </span>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the selection's state is read through `bulk`, which changes with it
    [organizationId, lastSeenMode, canDelete, location.pathname, location.search, bulk.selection, pageAllSelected, onRemove],
  )
}
