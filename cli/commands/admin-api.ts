import { type Command } from 'commander'
import { z } from 'zod'
import { resolveOrg, withContext, type CliContext } from '../context'
import { usageError } from '../errors'
import { printDone, printRecord, printRows } from '../output'

type AdminUser = { uid: string; displayName: string; email: string; emailVerified: boolean; disabled: boolean; customClaims: { admin?: true }; times: { creation: string; lastSignIn: string | null } }
type AdminOrg = { id: string; name: string; ownerName: string; billingStatus: string; billingPeriod: string; createdAt: string }
type Invoice = { id: string; reference: string; total: string; currency: string; status: string; dueOn: string | null; sentOn: string | null; settledOn: string | null; created: string }
type SiteMessage = { id: string; text: string; type: string; starts: string; ends: string }

const none = z.object({})
const bool = (flag: string) =>
  z
    .enum(['true', 'false', 'yes', 'no'], { errorMap: () => ({ message: `${flag} must be true or false` }) })
    .transform((v) => v === 'true' || v === 'yes')
    .optional()

/** Every page of a site-admin list ({ items, nextPageToken }). */
async function allItems<T>(ctx: CliContext, call: string, body: object = {}): Promise<T[]> {
  const items: T[] = []
  let pageToken: string | null = null
  do {
    const page: { items: T[]; nextPageToken: string | null } = await ctx.client.call(call, { ...body, limit: 100, ...(pageToken ? { pageToken } : {}) })
    items.push(...page.items)
    pageToken = page.nextPageToken
  } while (pageToken)
  return items
}

const invoiceColumns: [string, (i: Invoice) => unknown][] = [
  ['id', (i) => i.id],
  ['reference', (i) => i.reference],
  ['total', (i) => `${i.total} ${i.currency}`],
  ['status', (i) => i.status],
  ['due', (i) => i.dueOn?.slice(0, 10) ?? ''],
  ['settled', (i) => i.settledOn?.slice(0, 10) ?? ''],
]

const invoiceFields = z.object({
  reference: z.string().optional(),
  total: z.string().optional(),
  currency: z.string().optional(),
  status: z.string().optional(),
  due: z.string().optional(),
  sent: z.string().optional(),
  settled: z.string().optional(),
})
const invoiceDoc = (o: z.output<typeof invoiceFields>) =>
  Object.fromEntries(
    Object.entries({ reference: o.reference, total: o.total, currency: o.currency, status: o.status, dueOn: o.due, sentOn: o.sent, settledOn: o.settled }).filter(([, v]) => v !== undefined),
  )
const withInvoiceOptions = (command: Command) =>
  command
    .option('--reference <text>', 'invoice reference')
    .option('--total <amount>', 'amount such as 1250.00')
    .option('--currency <code>', 'three-letter currency code (default USD)')
    .option('--status <status>', 'open, settled, draft or canceled')
    .option('--due <date>', 'due date (YYYY-MM-DD)')
    .option('--sent <date>', 'sent date')
    .option('--settled <date>', 'settled date')

/** Site-administrator commands over /client/v1 (admin/* calls); everyone else gets exit code 4. */
export function registerAdminApiCommands(admin: Command) {
  const users = admin.command('users').description('accounts of the installation (site administrators)')
  users
    .command('list')
    .description('every account, newest first')
    .action(
      withContext(none, async (ctx) => {
        const items = await allItems<AdminUser>(ctx, 'admin/users')
        printRows(ctx, { users: items }, items, [
          ['id', (u) => u.uid],
          ['name', (u) => u.displayName],
          ['email', (u) => u.email],
          ['verified', (u) => (u.emailVerified ? 'yes' : 'no')],
          ['disabled', (u) => (u.disabled ? 'yes' : '')],
          ['admin', (u) => (u.customClaims.admin ? 'yes' : '')],
          ['last sign-in', (u) => u.times.lastSignIn ?? 'Never'],
        ], 'No users.')
      }),
    )
  users
    .command('update')
    .description('disable or enable an account, grant or take the site-admin claim')
    .argument('<userId>', 'user id')
    .option('--disabled <bool>', 'true: sign the user out everywhere and refuse sign-in')
    .option('--admin <bool>', 'site administrator claim (verified vendor addresses only)')
    .action(
      withContext(z.object({ disabled: bool('--disabled'), admin: bool('--admin') }), async (ctx, o, [uid]) => {
        if (o.disabled === undefined && o.admin === undefined) throw usageError('Give --disabled and/or --admin')
        const user = await ctx.client.call<AdminUser>('admin/updateUser', { uid, disabled: o.disabled, ...(o.admin === undefined ? {} : { customClaims: { admin: o.admin } }) })
        printDone(ctx, user, `${user.email}: ${user.disabled ? 'disabled' : 'enabled'}${user.customClaims.admin ? ', site administrator' : ''}`)
      }),
    )

  const orgs = admin.command('orgs').description('every organization of the installation (site administrators)')
  orgs
    .command('list')
    .description('every organization by name with its billing status')
    .action(
      withContext(none, async (ctx) => {
        const items = await allItems<AdminOrg>(ctx, 'admin/orgs')
        printRows(ctx, { organizations: items }, items, [
          ['id', (o) => o.id],
          ['name', (o) => o.name],
          ['owner', (o) => o.ownerName],
          ['billing', (o) => `${o.billingStatus} / ${o.billingPeriod}`],
          ['created', (o) => o.createdAt],
        ], 'No organizations.')
      }),
    )
  orgs
    .command('show')
    .description('one organization: owner, billing, counts')
    .argument('<org>', 'organization id or name')
    .action(
      withContext(none, async (ctx, _o, [org]) => {
        const detail = await ctx.client.call<AdminOrg & { description: string; agentCount: number; projectCount: number }>('admin/org', { orgId: await resolveOrg(ctx, org) })
        printRecord(ctx, detail, [
          ['ID', detail.id],
          ['Name', detail.name],
          ['Owner', detail.ownerName],
          ['Billing', `${detail.billingStatus} / ${detail.billingPeriod}`],
          ['Projects', detail.projectCount],
          ['Agents', detail.agentCount],
          ['Created', detail.createdAt],
        ])
      }),
    )

  admin
    .command('billing')
    .description("set an organization's billing status and period (site administrators)")
    .argument('<org>', 'organization id or name')
    .requiredOption('--status <status>', 'disabled, requested, enabled, suspended or internal')
    .option('--period <period>', 'monthly, quarterly, yearly or custom', 'monthly')
    .action(
      withContext(z.object({ status: z.string(), period: z.string() }), async (ctx, o, [org]) => {
        const result = await ctx.client.call<{ organizationId: string; billingStatus: string; billingPeriod: string }>('admin/updateOrgBillingStatus', {
          organizationId: await resolveOrg(ctx, org),
          status: o.status,
          period: o.period,
        })
        printDone(ctx, result, `Billing of ${result.organizationId}: ${result.billingStatus} / ${result.billingPeriod}`)
      }),
    )

  const invoices = admin.command('invoices').description("an organization's invoices (site administrators)")
  invoices
    .command('list')
    .argument('<org>', 'organization id or name')
    .description('invoices, newest first')
    .action(
      withContext(none, async (ctx, _o, [org]) => {
        const organizationId = await resolveOrg(ctx, org)
        const items = await allItems<Invoice>(ctx, 'admin/invoices', { organizationId })
        printRows(ctx, { organizationId, invoices: items }, items, invoiceColumns, 'No invoices.')
      }),
    )
  withInvoiceOptions(invoices.command('create').description('add an invoice').argument('<org>', 'organization id or name')).action(
    withContext(invoiceFields, async (ctx, o, [org]) => {
      const organizationId = await resolveOrg(ctx, org)
      const { invoice } = await ctx.client.call<{ invoice: Invoice }>('admin/createInvoice', { organizationId, invoice: invoiceDoc(o) })
      printDone(ctx, invoice, `Created invoice ${invoice.id} (${invoice.total} ${invoice.currency}, ${invoice.status})`)
    }),
  )
  withInvoiceOptions(invoices.command('update').description('change an invoice').argument('<org>', 'organization id or name').argument('<invoiceId>', 'invoice id')).action(
    withContext(invoiceFields, async (ctx, o, [org, id]) => {
      const doc = invoiceDoc(o)
      if (Object.keys(doc).length === 0) throw usageError('Give at least one field to change (--total, --status, ...)')
      const { invoice } = await ctx.client.call<{ invoice: Invoice }>('admin/updateInvoice', { organizationId: await resolveOrg(ctx, org), id, invoice: doc })
      printDone(ctx, invoice, `Updated invoice ${invoice.id} (${invoice.total} ${invoice.currency}, ${invoice.status})`)
    }),
  )
  invoices
    .command('delete')
    .description('delete an invoice')
    .argument('<org>', 'organization id or name')
    .argument('<invoiceId>', 'invoice id')
    .action(
      withContext(none, async (ctx, _o, [org, id]) => {
        const result = await ctx.client.call('admin/deleteInvoice', { organizationId: await resolveOrg(ctx, org), id })
        printDone(ctx, { id, ...result }, `Deleted invoice ${id}`)
      }),
    )

  const messages = admin.command('messages').description('site-wide banners (site administrators)')
  messages
    .command('list')
    .description('every site message, latest start first')
    .action(
      withContext(none, async (ctx) => {
        const { messages: items } = await ctx.client.call<{ messages: SiteMessage[] }>('admin/messageList')
        printRows(ctx, { messages: items }, items, [
          ['id', (m) => m.id],
          ['type', (m) => m.type],
          ['starts', (m) => m.starts],
          ['ends', (m) => m.ends],
          ['text', (m) => m.text],
        ], 'No site messages.')
      }),
    )
  messages
    .command('create')
    .description('show a banner to every user between --starts and --ends')
    .argument('<text>', 'message text')
    .option('--type <type>', 'info, warning, error or success', 'info')
    .option('--starts <time>', 'start (ISO date/time; default now)')
    .requiredOption('--ends <time>', 'end (ISO date/time)')
    .action(
      withContext(z.object({ type: z.string(), starts: z.string().optional(), ends: z.string() }), async (ctx, o, [text]) => {
        const result = await ctx.client.call<{ id: string }>('admin/message', { text, type: o.type, starts: o.starts ?? new Date().toISOString(), ends: o.ends })
        printDone(ctx, result, `Created site message ${result.id}`)
      }),
    )
  messages
    .command('clear')
    .description('remove every site message')
    .action(
      withContext(none, async (ctx) => {
        const result = await ctx.client.call<{ removed: number }>('admin/messagesClear')
        printDone(ctx, result, `Removed ${result.removed} site message(s)`)
      }),
    )
}
