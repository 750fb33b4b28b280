import { z } from 'zod'
import { explainAccess, explainAccessInput } from '~/domain/access/explain.server'
import { agentsCsv } from '~/domain/fleet/agents-csv'
import { parseColumns, visibleColumns } from '~/domain/fleet/agents-table-state'
import { loadAgentRows } from '~/domain/fleet/agents-table.server'
import { BULK_CHUNK_SIZE, bulkAgents, bulkAgentsInput, bulkExportIds, bulkExportInput } from '~/domain/fleet/bulk.server'
import { readinessCsv, readinessReport } from '~/domain/readiness/readiness.server'
import { csvLine } from '~/utils/csv'
import { defineCall, type ApiCalls } from './registry.server'
import { opsOutputs } from './outputs/ops'

/** Issue 13 operations: the access explainer, bulk operations on agents, the readiness report. */
export const opsCalls: ApiCalls = {
  'access/explain': defineCall({
    input: explainAccessInput,
    output: opsOutputs['access/explain'],
    handler: ({ actor }, input) => explainAccess(actor, input),
  }),
  'agent/bulk': defineCall({
    input: bulkAgentsInput,
    output: opsOutputs['agent/bulk'],
    handler: ({ actor }, input) => bulkAgents(actor, input),
  }),
  'agent/bulkExport': defineCall({
    input: bulkExportInput.extend({ columns: z.string().max(2000).optional() }),
    output: opsOutputs['agent/bulkExport'],
    handler: async ({ actor }, { columns, ...input }) => {
      const { scope, ids } = await bulkExportIds(actor, input)
      const rows = []
      for (let i = 0; i < ids.length; i += BULK_CHUNK_SIZE) rows.push(...(await loadAgentRows(scope, ids.slice(i, i + BULK_CHUNK_SIZE))))
      return { count: rows.length, csv: agentsCsv(rows, visibleColumns(parseColumns(columns ?? null))) }
    },
  }),
  'project/readiness': defineCall({
    input: z.object({ organizationId: z.string().min(1), projectId: z.string().min(1), format: z.enum(['json', 'csv']).default('json') }),
    output: opsOutputs['project/readiness'],
    handler: async ({ actor }, { organizationId, projectId, format }) => {
      const report = await readinessReport(actor, organizationId, projectId)
      return format === 'csv' ? { csv: readinessCsv(report, csvLine) } : report
    },
  }),
}
