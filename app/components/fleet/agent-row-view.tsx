import { type Cell, type Row, type VisibilityState, flexRender } from '@tanstack/react-table'
import { memo } from 'react'
import type { AgentTableRow } from '~/domain/fleet/agents-table.server'
import { cn } from '~/utils/cn'
import { CELL_READS } from './agents-columns'
import { HealthCell } from './status'
import { SystemAssignSelect } from './system-assign'

type AgentRowProps = {
  row: Row<AgentTableRow>
  /** what the cells show besides the row's data: a row renders again only when one of these or the agent changed */
  expanded: boolean
  columns: unknown
  columnVisibility: VisibilityState
  organizationId: string
  projects: { id: string; name: string }[]
  canUnassign: boolean
  canAssign: boolean
  colSpan: number
}

/**
 * A live reload makes new TanStack rows for every agent; a row whose agent object is the same (the
 * table shares unchanged rows, use-shared-rows.ts) and whose columns, visibility and expansion are
 * the same skips rendering: a live update re-renders only the agents that changed.
 */
const sameRow = (a: AgentRowProps, b: AgentRowProps) =>
  a.row.original === b.row.original &&
  a.expanded === b.expanded &&
  a.columns === b.columns &&
  a.columnVisibility === b.columnVisibility &&
  a.organizationId === b.organizationId &&
  a.projects === b.projects &&
  a.canUnassign === b.canUnassign &&
  a.canAssign === b.canAssign &&
  a.colSpan === b.colSpan

/** One agent's row, and under it when expanded its systems with their health and project (assignable in place). */
export const AgentRowView = memo(function AgentRowView({
  row,
  expanded,
  organizationId,
  projects,
  canUnassign,
  canAssign,
  colSpan,
}: AgentRowProps) {
  const agent = row.original
  return (
    <>
      <tr className={cn('border-b last:border-0 hover:bg-muted/30', expanded && 'bg-muted/20')} data-agent-id={agent.id}>
        {row.getVisibleCells().map((cell) => (
          <AgentCell key={cell.id} cell={cell} expanded={expanded} />
        ))}
      </tr>
      {expanded ? (
        <tr className="border-b bg-muted/20">
          <td colSpan={2} />
          <td colSpan={colSpan - 2} className="px-2 pb-3 pt-1">
            {agent.systems.length ? (
              <table className="text-xs">
                <thead className="text-muted-foreground">
                  <tr>
                    <th className="py-1 pr-6 text-left font-medium">System</th>
                    <th className="py-1 pr-6 text-left font-medium">Health</th>
                    <th className="py-1 text-left font-medium">Project</th>
                  </tr>
                </thead>
                <tbody>
                  {agent.systems.map((s) => (
                    <tr key={s.id}>
                      <td className="py-1 pr-6 font-medium">{s.name}</td>
                      <td className="py-1 pr-6">
                        <HealthCell {...s} />
                      </td>
                      <td className="py-1">
                        <SystemAssignSelect organizationId={organizationId} agentId={agent.id} system={s} projects={projects} canUnassign={canUnassign} disabled={!canAssign} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : (
              <p className="text-xs text-muted-foreground">This agent has not reported any system yet.</p>
            )}
          </td>
        </tr>
      ) : null}
    </>
  )
}, sameRow)

type AgentCellProps = { cell: Cell<AgentTableRow, unknown>; expanded: boolean }

/**
 * A changed agent (a live reload moved its Last Seen or status) re-renders only the cells whose
 * values changed: a cell is kept when its column definition, the row's expansion and the values
 * its column reads (CELL_READS; the whole agent for a column without an entry) are the same.
 */
const sameCell = (a: AgentCellProps, b: AgentCellProps) => {
  if (a.cell.column.columnDef !== b.cell.column.columnDef || a.expanded !== b.expanded) return false
  const before = a.cell.row.original
  const after = b.cell.row.original
  if (before === after) return true
  const reads = CELL_READS[a.cell.column.id]
  if (!reads) return false
  const x = reads(before)
  const y = reads(after)
  return x.length === y.length && x.every((v, i) => v === y[i])
}

// The cells' renderers (agents-columns.tsx) use no hooks, so they are called as functions here
// rather than mounted as a component each (flexRender): one fiber less per cell to hydrate.
const AgentCell = memo(function AgentCell({ cell }: AgentCellProps) {
  const render = cell.column.columnDef.cell
  return <td className="h-10 px-2 align-middle">{typeof render === 'function' ? render(cell.getContext()) : flexRender(render, cell.getContext())}</td>
}, sameCell)
