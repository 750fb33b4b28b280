import { type Command } from 'commander'
import { z } from 'zod'
import { USAGE_PERIODS, periodLabel, recentPeriods, type UsagePeriod } from '../../app/domain/billing/usage-periods'
import { orgOption, resolveOrg, resolveProject, withContext } from '../context'
import { usageError } from '../errors'
import { printRows } from '../output'

type Figures = { periodStart: string; periodEnd: string; activeClients: number; apiCalls: number; calls: Record<string, number>; computedAt: string; cached: boolean }
type EventView = { id: string; type: string; created: string; agentId: string; agentName: string; systemName: string | null; projects: { name: string }[] }

const reportOptions = z.object({
  org: orgOption,
  period: z.enum(['monthly', 'daily', 'hourly'], { errorMap: () => ({ message: '--period must be monthly, daily or hourly' }) }).default('monthly'),
  count: z.coerce.number({ invalid_type_error: '--count must be a number' }).int().min(1, '--count must be 1 to 96').max(96, '--count must be 1 to 96').optional(),
  date: z
    .string()
    .refine((v) => !Number.isNaN(Date.parse(v)), '--date must be a date such as 2026-11-01')
    .optional(),
  project: z.string().optional(),
  refresh: z.boolean().default(false),
})

/** `pixelfleet usage ...`: usage figures per period (site admins) and an organization's agent events. */
export function registerUsageCommands(program: Command) {
  const usage = program.command('usage').description('usage of an organization: billing figures and agent events')

  usage
    .command('report')
    .description('active agents and API calls per period, newest first (site administrators)')
    .requiredOption('--org <id|name>', 'organization')
    .option('--period <period>', 'monthly, daily or hourly (UTC)', 'monthly')
    .option('--count <n>', 'how many periods (default 3 months, 7 days, 12 hours)')
    .option('--date <date>', 'the newest period is the one holding this date (default: now)')
    .option('--project <project>', "one project's usage (it and its sub-projects)")
    .option('--refresh', 'recompute instead of using the cached figures')
    .action(
      withContext(reportOptions, async (ctx, o) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const projectId = o.project ? await resolveProject(ctx, organizationId, o.project) : undefined
        const period: UsagePeriod = o.period
        const starts = recentPeriods(period, o.count ?? USAGE_PERIODS[period].defaultCount, o.date ? new Date(o.date) : new Date())
        const rows: (Figures & { period: string })[] = []
        for (const start of starts) {
          const figures = await ctx.client.call<Figures>('admin/usageAggregated', {
            organizationId,
            period,
            sourceDate: start.toISOString(),
            groupBy: projectId ? 'project' : 'organization',
            projectId,
            refresh: o.refresh,
          })
          rows.push({ ...figures, period: periodLabel(period, start) })
        }
        printRows(ctx, { organizationId, projectId: projectId ?? null, period, periods: rows }, rows, [
          ['period', (r) => r.period],
          ['active agents', (r) => r.activeClients],
          ['api calls', (r) => r.apiCalls],
          ['computed', (r) => r.computedAt],
        ])
      }),
    )

  usage
    .command('events')
    .description("the organization's latest agent events (metric events), newest first")
    .requiredOption('--org <id|name>', 'organization')
    .option('--limit <n>', 'how many events (1-1000)', '50')
    .action(
      withContext(z.object({ org: orgOption, limit: z.coerce.number().int().min(1).max(1000).catch(-1) }), async (ctx, o) => {
        if (o.limit < 0) throw usageError('--limit must be 1 to 1000')
        const organizationId = await resolveOrg(ctx, o.org)
        const events: EventView[] = []
        let pageToken: string | null = null
        do {
          const page: { events: EventView[]; nextCursor: string | null } = await ctx.client.call('organization/events', { id: organizationId, limit: Math.min(200, o.limit - events.length), pageToken })
          events.push(...page.events)
          pageToken = page.nextCursor
        } while (pageToken && events.length < o.limit)
        printRows(ctx, { organizationId, events }, events, [
          ['time', (e) => e.created],
          ['type', (e) => e.type],
          ['agent', (e) => e.agentName || e.agentId],
          ['system', (e) => e.systemName ?? ''],
          ['projects', (e) => e.projects.map((p) => p.name).join(', ') || '(None)'],
        ], 'No events.')
      }),
    )
}
