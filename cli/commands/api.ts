import { type Command } from 'commander'
import { z } from 'zod'
import manifest from '../api-calls.generated.json'
import { type ManifestCall, type ManifestField } from '../api-calls-manifest'
import { withContext } from '../context'
import { usageError } from '../errors'
import { printRecord, printRows } from '../output'

/**
 * Calls `pixelfleet api` leaves out on purpose, with the reason (tests/cli/cli-api-coverage.test.ts
 * fails for any other call without a command).
 */
export const CLI_LESS_CALLS: Record<string, string> = {
  'auth/logout': '`pixelfleet logout` revokes the stored token (token/revokeCurrent) and also forgets it locally',
  'public/auth/userCreate': 'signing up ends with the e-mail verification link, which is opened in a browser',
  'public/auth/emailVerifyRequest': 'the verification link it sends is opened in a browser',
  'public/auth/passwordResetRequest': 'the reset link it sends is opened in a browser',
  relay: 'answers where the browser finds the relay; agent UIs are opened in a browser, which signs in to the relay itself',
}

const calls = manifest as ManifestCall[]

/** Fields named like the CLI's own options (a channel's `url`) take a `--body-` prefix. */
const RESERVED = new Set(['url', 'json', 'output', 'data', 'help', 'version'])

/** --organization-id for organizationId, --body-url for url (pure). */
export const flagOf = (field: string) => `--${RESERVED.has(field) ? 'body-' : ''}${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`
/** The key commander gives an option's value: --body-url -> bodyUrl. */
const optionKey = (field: string) => flagOf(field).slice(2).replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())

/** An option's text as the body's value (pure); bad text is a usage error naming the option. */
export function fieldValue(field: ManifestField, text: string): unknown {
  const flag = flagOf(field.name)
  if (field.kind === 'string') return text
  if (field.kind === 'number') {
    const number = Number(text)
    if (text.trim() === '' || !Number.isFinite(number)) throw usageError(`${flag} must be a number`)
    return number
  }
  if (field.kind === 'boolean') {
    if (['true', 'yes'].includes(text)) return true
    if (['false', 'no'].includes(text)) return false
    throw usageError(`${flag} must be true or false`)
  }
  try {
    return JSON.parse(text)
  } catch {
    // a field of any type given plain text (admin calls take ids this way)
    return text
  }
}

/** The request body from the options (pure): --data first, each field's option over it. */
export function callBody(call: ManifestCall, options: Record<string, unknown>): Record<string, unknown> {
  let body: Record<string, unknown> = {}
  if (typeof options.data === 'string') {
    let data: unknown
    try {
      data = JSON.parse(options.data)
    } catch {
      throw usageError('--data must be a JSON object')
    }
    if (data === null || typeof data !== 'object' || Array.isArray(data)) throw usageError('--data must be a JSON object')
    body = { ...(data as Record<string, unknown>) }
  }
  for (const field of call.fields) {
    const text = options[optionKey(field.name)]
    if (typeof text === 'string') body[field.name] = fieldValue(field, text)
  }
  const missing = call.fields.filter((f) => f.required && !(f.name in body)).map((f) => flagOf(f.name))
  if (missing.length) throw usageError(`${call.name} needs ${missing.join(', ')} (or the field in --data)`)
  return body
}

const describeField = (field: ManifestField) =>
  [field.description, field.choices ? `one of ${field.choices.join(', ')}` : '', field.kind === 'json' ? 'JSON' : '', field.required ? 'required' : ''].filter(Boolean).join('; ')

/**
 * `pixelfleet api <call>`: one command per /client/v1 call, generated from the call registry
 * (cli/api-calls.generated.json): an option per input field, --data for a whole JSON body, the
 * answer as JSON, a table or CSV (lists: one row per item).
 */
export function registerApiCommands(program: Command) {
  const api = program.command('api').description('every /client/v1 call by name, e.g. `pixelfleet api issue/list --organization-id ORG --project-id P --output csv`')
  for (const call of calls) {
    const command = api.command(call.name).description(`POST /client/v1/${call.name}${call.list ? ` (a list: ${call.list.property})` : ''}`)
    for (const field of call.fields) command.option(`${flagOf(field.name)} <value>`, describeField(field))
    command.option('--data <json>', 'the whole request body as a JSON object (options override its fields)')
    command.action(
      withContext(z.object({}).passthrough(), async (ctx, options) => {
        const answer = await ctx.client.call<Record<string, unknown>>(call.name, callBody(call, options), { needsLogin: !call.public })
        const list = call.list
        const rows = list && Array.isArray(answer[list.property]) ? (answer[list.property] as Record<string, unknown>[]) : null
        if (list && rows) printRows(ctx, answer, rows, list.columns.map((column) => [column, (row: Record<string, unknown>) => row[column]]), 'Nothing to show.')
        else printRecord(ctx, answer)
      }),
    )
  }
}
