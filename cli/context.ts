import { type Command } from 'commander'
import { z } from 'zod'
import { ApiClient } from './client'
import { DEFAULT_URL, configPath, normalizeUrl, readConfig, type StoredConfig } from './config'
import { CliError, ExitCode, usageError } from './errors'
import { OUTPUT_FORMATS, type OutputFormat } from './output'

/** Options every command accepts (declared on the root command). */
export const globalOptionsSchema = z.object({
  url: z.string().url('--url must be an address such as http://localhost:3000').optional(),
  json: z.boolean().default(false),
  output: z.enum(OUTPUT_FORMATS, { errorMap: () => ({ message: '--output must be table, csv or json' }) }).optional(),
})

/** Parses commander options with a zod schema; problems are usage errors (exit code 2). */
export function parseOptions<S extends z.ZodTypeAny>(schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw)
  if (!parsed.success) throw usageError(parsed.error.issues[0]?.message ?? 'Invalid options')
  return parsed.data
}

export type CliContext = {
  url: string
  /** true when the output is JSON (--json or --output json) */
  json: boolean
  format: OutputFormat
  configFile: string
  config: StoredConfig | null
  client: ApiClient
}

/**
 * Where to talk to and with which token: --url, else $PIXELFLEET_URL, else the portal of the last
 * login, else http://localhost:3000. The stored token is only sent to the portal it came from;
 * $PIXELFLEET_TOKEN (scripts, CI) overrides it.
 */
export function resolveContext(command: Command, env: Record<string, string | undefined> = process.env): CliContext {
  const options = parseOptions(globalOptionsSchema, command.optsWithGlobals())
  const configFile = configPath(env)
  const config = readConfig(configFile)
  const url = normalizeUrl(options.url ?? env.PIXELFLEET_URL ?? config?.url ?? DEFAULT_URL)
  const token = env.PIXELFLEET_TOKEN || (config && normalizeUrl(config.url) === url ? config.token : null)
  const format = options.json ? 'json' : (options.output ?? 'table')
  return { url, json: format === 'json', format, configFile, config, client: new ApiClient(url, token) }
}

/** The --json flag alone, for reporting errors that happen before a context exists. */
export const wantsJson = (argv: string[]) => argv.includes('--json') || argv.join(' ').includes('--output json') || argv.includes('--output=json')

/**
 * A commander action with its options checked by `schema` and a context resolved: `fn` gets the
 * context, the parsed options and the positional arguments.
 */
export function withContext<S extends z.ZodTypeAny>(schema: S, fn: (ctx: CliContext, options: z.output<S>, args: string[]) => Promise<void>) {
  return async (...all: unknown[]) => {
    const command = all.at(-1) as Command
    const ctx = resolveContext(command)
    await fn(ctx, parseOptions(schema, all.at(-2)), all.slice(0, -2) as string[])
  }
}

type OrgListItem = { id: string; name: string }

/**
 * `--org` takes an organization's id or its name (case-insensitive). A name several of your
 * organizations share is a usage error listing them; anything else is passed on as an id, so the
 * portal answers for it (a site admin may address organizations they are not a member of).
 */
export async function resolveOrg(ctx: CliContext, value: string): Promise<string> {
  const { organizations } = await ctx.client.call<{ organizations: OrgListItem[] }>('organization/list')
  if (organizations.some((o) => o.id === value)) return value
  const named = organizations.filter((o) => o.name.toLowerCase() === value.trim().toLowerCase())
  if (named.length === 1) return named[0].id
  if (named.length > 1) throw ambiguousOrg(value, named)
  return (await adminOrgByName(ctx, value)) ?? value
}

const ambiguousOrg = (value: string, named: OrgListItem[]) =>
  usageError(`Several organizations are named '${value}'; give its id: ${named.map((o) => `${o.id} (${o.name})`).join(', ')}`)

/** A site admin also names organizations they are not a member of; for anyone else this list is refused and ignored. */
async function adminOrgByName(ctx: CliContext, value: string): Promise<string | null> {
  const named: OrgListItem[] = []
  let pageToken: string | null = null
  try {
    do {
      const page: { items: OrgListItem[]; nextPageToken: string | null } = await ctx.client.call('admin/orgs', { limit: 100, ...(pageToken ? { pageToken } : {}) })
      named.push(...page.items.filter((o) => o.id === value || o.name.toLowerCase() === value.trim().toLowerCase()))
      pageToken = page.nextPageToken
    } while (pageToken)
  } catch (error) {
    if (error instanceof CliError && error.exitCode === ExitCode.permission) return null
    throw error
  }
  if (named.some((o) => o.id === value)) return value
  if (named.length > 1) throw ambiguousOrg(value, named)
  return named[0]?.id ?? null
}

type ProjectNode = { id: string; name: string; subRows: ProjectNode[] }

/** Every project of the tree, depth first (pure). */
export const flattenProjects = <T extends { subRows: T[] }>(nodes: T[], depth = 0): (T & { depth: number })[] =>
  nodes.flatMap((n) => [{ ...n, depth }, ...flattenProjects(n.subRows, depth + 1)])

/** `--project` takes a project's id or name within the organization; an ambiguous name is a usage error. */
export async function resolveProject(ctx: CliContext, organizationId: string, value: string): Promise<string> {
  const { projects } = await ctx.client.call<{ projects: ProjectNode[] }>('project/list', { organizationId })
  const all = flattenProjects(projects)
  if (all.some((p) => p.id === value)) return value
  const named = all.filter((p) => p.name.toLowerCase() === value.trim().toLowerCase())
  if (named.length === 1) return named[0].id
  if (named.length > 1) throw usageError(`Several projects are named '${value}'; give its id: ${named.map((p) => p.id).join(', ')}`)
  return value
}

/** zod for a required `--org`. */
export const orgOption = z.string({ required_error: '--org <id|name> is required' }).min(1, '--org <id|name> is required')
