import { type Command } from 'commander'
import { z } from 'zod'
import { type alarmsOutputs } from '../../app/api/outputs/alarms'
import { SEVERITY, type SeverityName } from '../../app/domain/agents/derived'
import { DEFAULT_ISSUE_STATE, ISSUE_STATE_FILTERS } from '../../app/domain/alarms/state'
import { orgOption, resolveOrg, resolveProject, withContext, type CliContext } from '../context'
import { usageError } from '../errors'
import { printDone, printRecord, printRows } from '../output'

type IssuePage = z.infer<(typeof alarmsOutputs)['issue/list']>
type IssueRow = IssuePage['issues'][number]
type IssueDetail = z.infer<(typeof alarmsOutputs)['issue/get']>
type ProjectNode = { id: string; name: string; subRows: ProjectNode[] }

const SEVERITY_NAMES = (Object.keys(SEVERITY) as SeverityName[]).filter((name) => name !== 'invalid')
const severityName = (value: number) => SEVERITY_NAMES.find((name) => SEVERITY[name] === value) ?? 'none'

/** `--severity critical,error` (names or numbers) as the set of severities (pure); bad text is a usage error. */
export function parseSeverities(text: string): Set<number> {
  const values = text
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean)
    .map((part) => {
      const named = SEVERITY_NAMES.find((name) => name === part)
      if (named) return SEVERITY[named]
      if (/^\d+$/.test(part) && SEVERITY_NAMES.some((name) => SEVERITY[name] === Number(part))) return Number(part)
      throw usageError(`--severity takes ${SEVERITY_NAMES.join(', ')} (comma-separated), not '${part}'`)
    })
  if (values.length === 0) throw usageError(`--severity takes ${SEVERITY_NAMES.join(', ')} (comma-separated)`)
  return new Set(values)
}

const listOptions = z.object({
  org: orgOption,
  project: z.string().optional(),
  agent: z.string().optional(),
  state: z.enum(ISSUE_STATE_FILTERS, { errorMap: () => ({ message: `--state must be ${ISSUE_STATE_FILTERS.join(', ')}` }) }).default(DEFAULT_ISSUE_STATE),
  severity: z.string().optional(),
  limit: z.coerce.number({ invalid_type_error: '--limit must be a number' }).int('--limit must be 1 to 10000').min(1, '--limit must be 1 to 10000').max(10_000, '--limit must be 1 to 10000').default(100),
  all: z.boolean().default(false),
})
const withOrg = z.object({ org: orgOption })

/**
 * Pages of issue/list for one project (with its sub-projects) or agent until `limit` rows that pass
 * `keep` are found or the pages end.
 */
async function collect(ctx: CliContext, body: { organizationId: string; projectId?: string; agentId?: string; state: string }, keep: (row: IssueRow) => boolean, limit: number) {
  const rows: IssueRow[] = []
  for (let page = 1; ; page++) {
    const answer = await ctx.client.call<IssuePage>('issue/list', { ...body, page })
    rows.push(...answer.issues.filter(keep))
    if (rows.length >= limit || page >= answer.pageCount) return rows.slice(0, limit)
  }
}

/** `pixelfleet issues ...` (issue/* calls): alarms of a project or agent, their details and acknowledgement. */
export function registerIssuesCommands(program: Command) {
  const issues = program.command('issues').description('issues (alarms) of projects and agents')

  issues
    .command('list')
    .description("issues of a project (with its sub-projects), of an agent, or of every project you see; worst first")
    .requiredOption('--org <id|name>', 'organization')
    .option('--project <id|name>', 'only this project and its sub-projects')
    .option('--agent <agentId>', "only this agent's issues")
    .option('--state <state>', `${ISSUE_STATE_FILTERS.join('|')} (default ${DEFAULT_ISSUE_STATE})`)
    .option('--severity <list>', `only these severities: ${SEVERITY_NAMES.join(',')}`)
    .option('--limit <n>', 'at most this many issues (default 100)')
    .option('--all', 'every matching issue (no --limit)')
    .action(
      withContext(listOptions, async (ctx, o) => {
        if (o.project && o.agent) throw usageError('Give --project or --agent, not both')
        const severities = o.severity === undefined ? null : parseSeverities(o.severity)
        const keep = (row: IssueRow) => !severities || severities.has(row.severity)
        const limit = o.all ? Number.POSITIVE_INFINITY : o.limit
        const organizationId = await resolveOrg(ctx, o.org)
        let rows: IssueRow[]
        if (o.agent) rows = await collect(ctx, { organizationId, agentId: o.agent, state: o.state }, keep, limit)
        else if (o.project) rows = await collect(ctx, { organizationId, projectId: await resolveProject(ctx, organizationId, o.project), state: o.state }, keep, limit)
        else {
          // every top project you see covers its sub-projects; a project-only member's tree starts at their projects
          const { projects } = await ctx.client.call<{ projects: ProjectNode[] }>('project/list', { organizationId })
          rows = []
          for (const top of projects) {
            if (rows.length >= limit) break
            rows.push(...(await collect(ctx, { organizationId, projectId: top.id, state: o.state }, keep, limit - rows.length)))
          }
          rows.sort((a, b) => a.severity - b.severity || b.latestAt.localeCompare(a.latestAt))
        }
        printRows(ctx, { organizationId, state: o.state, issues: rows }, rows, [
          ['id', (i) => i.id],
          ['severity', (i) => severityName(i.severity)],
          ['state', (i) => (i.isActive ? (i.acknowledged ? 'active, acknowledged' : 'active') : 'cleared')],
          ['agent', (i) => i.agent],
          ['system', (i) => i.system],
          ['message', (i) => i.message || i.key],
          ['count', (i) => i.count],
          ['latest', (i) => i.latestAt],
        ], 'No issues.')
      }),
    )

  issues
    .command('show')
    .description("an issue's details, history and comments")
    .argument('<issueId>', 'issue id')
    .requiredOption('--org <id|name>', 'organization')
    .action(
      withContext(withOrg, async (ctx, o, [issueId]) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const answer = await ctx.client.call<IssueDetail>('issue/get', { organizationId, issueId })
        const i = answer.issue
        printRecord(ctx, answer, [
          ['id', i.id],
          ['severity', severityName(i.severity)],
          ['message', i.message || i.key],
          ['key', i.key],
          ['agent', `${i.agent} (${i.agentId})`],
          ['system', i.system],
          ['active', i.isActive ? 'yes' : `no, cleared ${i.clearedAt ?? ''}${i.clearedBy ? ` by ${i.clearedBy}` : ''}`],
          ['acknowledged', i.acknowledged ? `${i.acknowledgedAt ?? ''} by ${i.acknowledgedBy}` : 'no'],
          ['count', i.count],
          ['since', i.createdAt],
          ['latest', i.latestAt],
          ['comments', answer.comments.map((c) => `${c.createdAt} ${c.authorName} (${c.kind})${c.text ? `: ${c.text}` : ''}`).join(' | ')],
        ])
      }),
    )

  issues
    .command('acknowledge')
    .description("acknowledge an issue's current activation (further escalations notify nobody)")
    .argument('<issueId>', 'issue id')
    .requiredOption('--org <id|name>', 'organization')
    .option('--comment <text>', 'a comment saved with the acknowledgement')
    .action(
      withContext(withOrg.extend({ comment: z.string().optional() }), async (ctx, o, [issueId]) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const result = await ctx.client.call<{ issueId: string; acknowledgedAt: string }>('issue/acknowledge', { organizationId, issueId, comment: o.comment })
        printDone(ctx, result, `Acknowledged issue ${issueId}`)
      }),
    )

  issues
    .command('unacknowledge')
    .description('withdraw the acknowledgement: further escalations notify again')
    .argument('<issueId>', 'issue id')
    .requiredOption('--org <id|name>', 'organization')
    .option('--comment <text>', 'why (saved with the issue)')
    .action(
      withContext(withOrg.extend({ comment: z.string().optional() }), async (ctx, o, [issueId]) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const result = await ctx.client.call<{ issueId: string; unacknowledgedAt: string }>('issue/unacknowledge', { organizationId, issueId, comment: o.comment })
        printDone(ctx, result, `Unacknowledged issue ${issueId}`)
      }),
    )
}
