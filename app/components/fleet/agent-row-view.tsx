import { type Row, flexRender } from '@tanstack/react-table'
import type { AgentTableRow } from '~/domain/fleet/agents-table.server'
import { cn } from '~/utils/cn'
import { HealthCell } from './status'
import { SystemAssignSelect } from './system-assign'

/** One agent's row, and under it when expanded its systems with their health and project (assignable in place). */
export function AgentRowView({
  row,
  organizationId,
  projects,
  canUnassign,
  canAssign,
  colSpan,
}: {
  row: Row<AgentTableRow>
  organizationId: string
  projects: { id: string; name: string }[]
  canUnassign: boolean
  canAssign: boolean
  colSpan: number
}) {
  const agent = row.original
  return (
    <>
      <tr className={cn('border-b last:border-0 hover:bg-muted/30', row.getIsExpanded() && 'bg-muted/20')} data-agent-id={agent.id}>
        {row.getVisibleCells().map((cell) => (
          <td key={cell.id} className="h-10 px-2 align-middle">
            {flexRender(cell.column.columnDef.cell, cell.getContext())}
          </td>
        ))}
      </tr>
      {row.getIsExpanded() ? (
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
}
