import { type Command } from 'commander'
import { z } from 'zod'
import { ApiClient } from './client'
import { DEFAULT_URL, configPath, normalizeUrl, readConfig, type StoredConfig } from './config'
import { usageError } from './errors'

/** Options every command accepts (declared on the root command). */
export const globalOptionsSchema = z.object({
  url: z.string().url('--url must be an address such as http://localhost:3000').optional(),
  json: z.boolean().default(false),
})

/** Parses commander options with a zod schema; problems are usage errors (exit code 2). */
export function parseOptions<S extends z.ZodTypeAny>(schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw)
  if (!parsed.success) throw usageError(parsed.error.issues[0]?.message ?? 'Invalid options')
  return parsed.data
}

export type CliContext = {
  url: string
  json: boolean
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
  return { url, json: options.json, configFile, config, client: new ApiClient(url, token) }
}

/** The --json flag alone, for reporting errors that happen before a context exists. */
export const wantsJson = (argv: string[]) => argv.includes('--json')
