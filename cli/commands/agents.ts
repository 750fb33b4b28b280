import { type Command } from 'commander'
import { z } from 'zod'
import { resolveContext, parseOptions } from '../context'
import { csvLine } from '../../app/utils/csv'
import { emit, formatAge, formatTable } from '../output'

type AgentItem = {
  id: string
  name: string
  product: string
  serial: string
  version: string
  isConnected: boolean
  lastSeen: string | null
  systems: { id: string; key: string; name: string; projectId: string | null; projectName: string | null }[]
}
type AgentPage = { agents: AgentItem[]; nextCursor: string | null }

const listOptions = z.object({
  org: z.string({ required_error: '--org <organizationId> is required' }).min(1, '--org <organizationId> is required'),
  filter: z.string().optional(),
  limit: z.coerce.number({ invalid_type_error: '--limit must be a number' }).int().min(1, '--limit must be 1 to 500').max(500, '--limit must be 1 to 500').default(100),
  all: z.boolean().default(false),
  csv: z.boolean().default(false),
})

/** JSON form (pure). */
export const agentsListJson = (organizationId: string, agents: AgentItem[], nextCursor: string | null) => ({
  organizationId,
  agents: agents.map((a) => ({
    id: a.id,
    name: a.name,
    product: a.product,
    serial: a.serial,
    version: a.version,
    connected: a.isConnected,
    lastSeen: a.lastSeen,
    systems: a.systems.map((s) => ({ id: s.id, key: s.key, name: s.name, projectId: s.projectId, projectName: s.projectName })),
  })),
  nextCursor,
})

/** Human form (pure). */
export function agentsListText(agents: AgentItem[], nextCursor: string | null, now = Date.now()): string {
  if (agents.length === 0) return 'No agents.'
  const rows = agents.map((a) => [
    a.id,
    a.name || 'Unknown Name',
    a.product,
    a.serial,
    a.isConnected ? 'connected' : 'disconnected',
    formatAge(a.lastSeen, now),
    `${a.systems.filter((s) => s.projectId).length}/${a.systems.length}`,
  ])
  const table = formatTable(['ID', 'NAME', 'PRODUCT', 'SERIAL', 'STATE', 'LAST SEEN', 'SYSTEMS'], rows)
  return nextCursor ? `${table}\n(more: use --all, or --limit)` : table
}

/** CSV form (pure): one row per agent, formula-safe cells (app/utils/csv.ts). */
export function agentsListCsv(agents: AgentItem[]): string {
  const header = csvLine(['ID', 'Name', 'Product', 'Serial', 'Version', 'Connected', 'Last Seen', 'Systems Assigned', 'Systems Total'])
  const rows = agents.map((a) =>
    csvLine([a.id, a.name, a.product, a.serial, a.version, a.isConnected ? 'Connected' : 'Disconnected', a.lastSeen ?? 'Never', a.systems.filter((s) => s.projectId).length, a.systems.length]),
  )
  return [header, ...rows].join('\r\n')
}

export function registerAgentsCommands(program: Command) {
  const agents = program.command('agents').description('agents of an organization')
  agents
    .command('list')
    .description('list the agents of an organization (systems shown as assigned/total)')
    .option('--org <organizationId>', 'organization id')
    .option('--filter <text>', 'part of the name, serial or product')
    .option('--limit <n>', 'agents per page (1-500)')
    .option('--all', 'fetch every page')
    .option('--csv', 'print CSV (for spreadsheets) instead of the table')
    .action(async (raw, command: Command) => {
      const ctx = resolveContext(command)
      const options = parseOptions(listOptions, raw)
      const collected: AgentItem[] = []
      let cursor: string | null = null
      do {
        const page: AgentPage = await ctx.client.call<AgentPage>('agent/list', {
          organizationId: options.org,
          filter: options.filter,
          limit: options.limit,
          ...(cursor ? { cursor } : {}),
        })
        collected.push(...page.agents)
        cursor = page.nextCursor
      } while (options.all && cursor)
      if (options.csv && !ctx.json) process.stdout.write(agentsListCsv(collected) + '\r\n')
      else emit(ctx, agentsListJson(options.org, collected, cursor), () => agentsListText(collected, cursor))
    })
}
