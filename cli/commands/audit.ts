import { type Command } from 'commander'
import { z } from 'zod'
import { orgOption, resolveOrg, resolveProject, withContext, type CliContext } from '../context'
import { printRows } from '../output'

type AuditRecord = { id: string; created: string; ip: string; userName: string; message: string }
type AuditPage = { records: AuditRecord[]; nextCursor: string | null }

const columns: [string, (r: AuditRecord) => unknown][] = [
  ['time', (r) => r.created],
  ['user', (r) => r.userName],
  ['ip', (r) => r.ip],
  ['message', (r) => r.message],
]
const limit = z.coerce.number({ invalid_type_error: '--limit must be a number' }).int().min(1, '--limit must be 1 to 1000').max(1000, '--limit must be 1 to 1000')
const auditOptions = z.object({ org: orgOption, project: z.string().optional() })

async function target(ctx: CliContext, o: { org: string; project?: string }) {
  const organizationId = await resolveOrg(ctx, o.org)
  return { organizationId, projectId: o.project ? await resolveProject(ctx, organizationId, o.project) : undefined }
}

/** One line per record for `tail` (pure): JSON lines with --json, else time, user and message. */
export const tailLine = (r: AuditRecord, json: boolean) => (json ? JSON.stringify(r) : `${r.created}  ${r.userName || '-'}  ${r.message}`)

/** `pixelfleet audit ...` (organization/auditList): the Activity log, newest first. */
export function registerAuditCommands(program: Command) {
  const audit = program.command('audit').description("an organization's or project's activity (audit) log")

  audit
    .command('list')
    .description('the newest records (--limit, default 50)')
    .requiredOption('--org <id|name>', 'organization')
    .option('--project <project>', "a project's log (it and its sub-projects)")
    .option('--limit <n>', 'how many records (1-1000)', '50')
    .action(
      withContext(auditOptions.extend({ limit }), async (ctx, o) => {
        const { organizationId, projectId } = await target(ctx, o)
        const records: AuditRecord[] = []
        let cursor: string | null = null
        do {
          const page: AuditPage = await ctx.client.call<AuditPage>('organization/auditList', { organizationId, projectId, cursor, limit: Math.min(100, o.limit - records.length) })
          records.push(...page.records)
          cursor = page.nextCursor
        } while (cursor && records.length < o.limit)
        printRows(ctx, { organizationId, projectId: projectId ?? null, records, nextCursor: cursor }, records, columns, 'No activity.')
      }),
    )

  audit
    .command('tail')
    .description('the last records oldest first; with --follow keeps printing new ones until Ctrl-C')
    .requiredOption('--org <id|name>', 'organization')
    .option('--project <project>', "a project's log")
    .option('-n, --lines <n>', 'how many past records to print first (0-100)', '10')
    .option('-f, --follow', 'keep polling for new records')
    .option('--interval <seconds>', 'seconds between polls', '5')
    .action(
      withContext(
        auditOptions.extend({
          lines: z.coerce.number({ invalid_type_error: '--lines must be a number' }).int().min(0, '--lines must be 0 to 100').max(100, '--lines must be 0 to 100'),
          follow: z.boolean().default(false),
          interval: z.coerce.number({ invalid_type_error: '--interval must be a number of seconds' }).min(0.1, '--interval must be at least 0.1 s').max(3600),
        }),
        async (ctx, o) => {
          const { organizationId, projectId } = await target(ctx, o)
          // Following: a full page marks what is old, so only records made from now on are printed later.
          const first = await ctx.client.call<AuditPage>('organization/auditList', { organizationId, projectId, limit: o.follow ? 100 : Math.max(1, o.lines) })
          const print = (records: AuditRecord[]) => {
            for (const r of [...records].reverse()) process.stdout.write(tailLine(r, ctx.json) + '\n')
          }
          print(first.records.slice(0, o.lines))
          if (!o.follow) return
          await follow(ctx, { organizationId, projectId }, first.records, o.interval * 1000, print)
        },
      ),
    )
}

/** Polls the first page and prints the records not seen yet, until SIGINT/SIGTERM (then exit 0). */
async function follow(ctx: CliContext, query: { organizationId: string; projectId?: string }, old: AuditRecord[], intervalMs: number, print: (records: AuditRecord[]) => void) {
  const seen = new Set(old.map((r) => r.id))
  // Records older than the newest one seen are history, even when they fell off the first page.
  let watermark = old[0]?.created ?? ''
  let stopped = false
  let wake: () => void = () => {}
  const stop = () => {
    stopped = true
    wake()
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  try {
    while (!stopped) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, intervalMs)
        wake = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      if (stopped) break
      const page = await ctx.client.call<AuditPage>('organization/auditList', { ...query, limit: 100 })
      const fresh = page.records.filter((r) => !seen.has(r.id) && r.created >= watermark)
      for (const r of fresh) seen.add(r.id)
      if (fresh[0]) watermark = fresh[0].created
      print(fresh)
    }
  } finally {
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
  }
}
