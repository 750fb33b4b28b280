import { type Command } from 'commander'
import { z } from 'zod'
import { csvLine } from '../../app/utils/csv'
import { orgOption, resolveOrg, resolveProject, withContext, type CliContext } from '../context'
import { notFoundError, usageError } from '../errors'
import { emit, formatAge, formatTable, printDone, printRows } from '../output'

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
  org: orgOption,
  filter: z.string().optional(),
  limit: z.coerce.number({ invalid_type_error: '--limit must be a number' }).int().min(1, '--limit must be 1 to 500').max(500, '--limit must be 1 to 500').default(100),
  all: z.boolean().default(false),
  csv: z.boolean().default(false),
  connected: z.boolean().optional(),
  project: z.string().optional(),
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
export function agentsListText(agents: AgentItem[], nextCursor: string | null, now = Date.now(), maxWidth?: number): string {
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
  const table = formatTable(['ID', 'NAME', 'PRODUCT', 'SERIAL', 'STATE', 'LAST SEEN', 'SYSTEMS'], rows, maxWidth)
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

/** Export form (pure): one row per system, so every assignment is in the file. */
export function agentsExportCsv(agents: AgentItem[]): string {
  const header = csvLine(['Agent ID', 'Agent Name', 'Product', 'Serial', 'Version', 'Connected', 'Last Seen', 'System ID', 'System Key', 'System Name', 'Project ID', 'Project'])
  const rows = agents.flatMap((a) => {
    const base = [a.id, a.name, a.product, a.serial, a.version, a.isConnected ? 'Connected' : 'Disconnected', a.lastSeen ?? 'Never']
    return a.systems.length
      ? a.systems.map((s) => csvLine([...base, s.id, s.key, s.name, s.projectId ?? '', s.projectName ?? '(None)']))
      : [csvLine([...base, '', '', '', '', ''])]
  })
  return [header, ...rows].join('\r\n') + '\r\n'
}

/** Every page (or one), then the filters the API has no parameter for (state, project) applied here. */
async function fetchAgents(ctx: CliContext, organizationId: string, o: { filter?: string; limit: number; all: boolean; connected?: boolean; projectId?: string }) {
  const collected: AgentItem[] = []
  let cursor: string | null = null
  const everyPage = o.all || o.connected !== undefined || o.projectId !== undefined
  do {
    const page: AgentPage = await ctx.client.call<AgentPage>('agent/list', { organizationId, filter: o.filter, limit: o.limit, ...(cursor ? { cursor } : {}) })
    collected.push(...page.agents)
    cursor = page.nextCursor
  } while (everyPage && cursor)
  const agents = collected.filter((a) => (o.connected === undefined || a.isConnected === o.connected) && (!o.projectId || a.systems.some((s) => s.projectId === o.projectId)))
  return { agents, nextCursor: cursor }
}

export function registerAgentsCommands(program: Command) {
  const agents = program.command('agents').description('agents of an organization')
  agents
    .command('list')
    .description('list the agents of an organization (systems shown as assigned/total)')
    .option('--org <id|name>', 'organization')
    .option('--filter <text>', 'part of the name, serial or product')
    .option('--connected', 'only connected agents')
    .option('--disconnected', 'only disconnected agents')
    .option('--project <project>', 'only agents with a system in this project (id or name)')
    .option('--limit <n>', 'agents per page (1-500)')
    .option('--all', 'fetch every page')
    .option('--csv', 'print CSV (same as --output csv)')
    .action(async (raw: Record<string, unknown>, command: Command) => {
      if (raw.connected && raw.disconnected) throw usageError('Give --connected or --disconnected, not both')
      const connected = raw.connected ? true : raw.disconnected ? false : undefined
      await withContext(listOptions, async (ctx, o) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const projectId = o.project ? await resolveProject(ctx, organizationId, o.project) : undefined
        const { agents: list, nextCursor } = await fetchAgents(ctx, organizationId, { ...o, connected, projectId })
        if (ctx.format === 'csv' || (o.csv && !ctx.json)) process.stdout.write(agentsListCsv(list) + '\r\n')
        else emit(ctx, agentsListJson(organizationId, list, nextCursor), () => agentsListText(list, nextCursor, Date.now(), process.stdout.isTTY ? process.stdout.columns : undefined))
      })({ ...raw, connected }, command)
    })

  agents
    .command('export')
    .description('every agent with each system and its project, as CSV (or --output json)')
    .requiredOption('--org <id|name>', 'organization')
    .action(
      withContext(z.object({ org: orgOption }), async (ctx, o) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const { agents: list } = await fetchAgents(ctx, organizationId, { limit: 500, all: true })
        if (ctx.json) emit(ctx, agentsListJson(organizationId, list, null), () => '')
        else process.stdout.write(agentsExportCsv(list))
      }),
    )

  agents
    .command('assign')
    .description("assign an agent's system to a project ('none' unassigns it)")
    .argument('<agentId>', 'agent id')
    .argument('[system]', 'system id or key (default: every system of the agent)')
    .requiredOption('--org <id|name>', 'organization')
    .requiredOption('--project <project>', "project id or name, or 'none'")
    .action(
      withContext(z.object({ org: orgOption, project: z.string().min(1) }), async (ctx, o, [agentId, system]) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const projectId = o.project.toLowerCase() === 'none' ? null : await resolveProject(ctx, organizationId, o.project)
        let systems = system ? [system] : []
        if (!system) {
          const { agents: all } = await fetchAgents(ctx, organizationId, { limit: 500, all: true })
          const agent = all.find((a) => a.id === agentId)
          if (!agent) throw notFoundError(`No agent ${agentId} in organization ${organizationId} (give the system too if you can only see some of its systems)`)
          systems = agent.systems.map((s) => s.id)
        }
        const results = []
        for (const systemId of systems) results.push(await ctx.client.call('project/systemAssign', { organizationId, agentId, systemId, projectId }))
        printDone(ctx, { organizationId, agentId, systems: results }, `${projectId ? `Assigned to project ${projectId}` : 'Unassigned'}: ${systems.length} system(s) of agent ${agentId}`)
      }),
    )

  agents
    .command('remove')
    .description('take an agent out of the organization (its systems are unassigned)')
    .argument('<agentId>', 'agent id')
    .requiredOption('--org <id|name>', 'organization')
    .action(
      withContext(z.object({ org: orgOption }), async (ctx, o, [agentId]) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const result = await ctx.client.call('agent/remove', { id: organizationId, agentId })
        printDone(ctx, { organizationId, agentId, ...result }, `Removed agent ${agentId} from organization ${organizationId}`)
      }),
    )

  agents
    .command('systems')
    .description("an agent's systems and their projects")
    .argument('<agentId>', 'agent id')
    .requiredOption('--org <id|name>', 'organization')
    .action(
      withContext(z.object({ org: orgOption }), async (ctx, o, [agentId]) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const { agents: all } = await fetchAgents(ctx, organizationId, { limit: 500, all: true })
        const agent = all.find((a) => a.id === agentId)
        if (!agent) throw notFoundError(`No agent ${agentId} in organization ${organizationId}`)
        printRows(ctx, { organizationId, agentId, systems: agentsListJson(organizationId, [agent], null).agents[0].systems }, agent.systems, [
          ['id', (s) => s.id],
          ['key', (s) => s.key],
          ['name', (s) => s.name],
          ['project', (s) => s.projectName ?? '(None)'],
        ], 'No systems.')
      }),
    )
}
