import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import openapiTS, { astToString } from 'openapi-typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loader } from '~/routes/client.v1.openapi[.]json'

/**
 * The live openapi.json must drive a typed client: openapi-typescript generates the types, and the
 * TypeScript compiler checks small clients against them (issue #29).
 */
let dir: string

const header = `import type { paths } from './api'
type Answer<P extends keyof paths> = paths[P]['post']['responses'][200]['content']['application/json']
type Body<P extends keyof paths> = NonNullable<paths[P]['post']['requestBody']>['content']['application/json']
declare function call<P extends keyof paths>(path: P, body: Body<P>): Promise<Answer<P>>
`

/**
 * Writes the client files and type-checks them with tsc in a child process (a check in this
 * process would block the test worker for many seconds): the errors, per file.
 */
async function typeErrors(clients: Record<string, string>): Promise<Record<string, string[]>> {
  for (const [name, client] of Object.entries(clients)) fs.writeFileSync(path.join(dir, `${name}.ts`), header + client)
  const tsconfig = { compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', types: [], skipLibCheck: true }, include: ['*.ts'] }
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig))
  const tsc = path.join(import.meta.dirname, '../../node_modules/typescript/bin/tsc')
  const output = await new Promise<string>((resolve) => execFile(process.execPath, [tsc, '-p', dir, '--pretty', 'false'], { timeout: 300_000 }, (_error, stdout) => resolve(stdout)))
  const errors: Record<string, string[]> = Object.fromEntries(Object.keys(clients).map((name) => [name, []]))
  for (const line of output.split('\n')) {
    const m = line.match(/^(?:.*\/)?([\w-]+)\.ts\(\d+,\d+\): error (.*)$/)
    if (m) (errors[m[1]] ??= []).push(m[2])
    else if (line.trim()) (errors.other ??= []).push(line)
  }
  return errors
}

let errors: Record<string, string[]>

const clients = {
  reads: `
declare const agents: Answer<'/client/v1/agent/list'>
const agent = agents.agents[0]
export const row: [string, string, boolean, string | null] = [agent.id, agent.name, agent.isConnected, agents.nextCursor]
declare const issue: Answer<'/client/v1/issue/get'>
export const severity: number = issue.issue.severity
declare const issues: Answer<'/client/v1/issue/list'>
export const acknowledged: boolean = issues.issues[0].acknowledged
declare const tokens: Answer<'/client/v1/token/list'>
export const expires: string | null = tokens.tokens[0].expiresAt
declare const created: Answer<'/client/v1/token/create'>
export const secret: string = created.token
declare const projects: Answer<'/client/v1/project/list'>
export const subProject: string = projects.projects[0].subRows[0].subRows[0].name
declare const windows: Answer<'/client/v1/project/windowList'>
export const kind: 'maintenance' | 'show' = windows.windows[0].kind
`,
  // A bare { type: 'object' } comes out as Record<string, never>: any key, none of them usable.
  untyped: `
type IsNever<T> = [T] extends [never] ? true : false
type Untyped = { [P in keyof paths]: IsNever<Answer<P>> extends true ? P : unknown extends Answer<P> ? P : string extends keyof Answer<P> ? P : never }[keyof paths]
// Names the untyped calls in the compiler's message when there are any.
export const untyped: [Untyped] extends [never] ? 'none' : Untyped = 'none'
`,
  // Calls whose bodies were open until issue #29: a typed body for each, checked field by field.
  writes: `
export const located = call('/client/v1/agent/locationUpdate', { organizationId: 'o', agentId: 'a', useLocationMode: 'manual', locationManual: { lati: 52.5, long: 13.4 } })
export const show = call('/client/v1/project/windowCreate', {
  organizationId: 'o',
  projectId: 'p',
  window: { kind: 'show', name: 'Opening night', recurrence: 'weekly', weekdays: [5, 6], startTime: '18:00', endTime: '23:00', timeZone: 'Europe/Berlin', severities: [2, 3] },
})
export const once = call('/client/v1/project/windowUpdate', {
  organizationId: 'o',
  windowId: 'w',
  window: { kind: 'maintenance', recurrence: 'once', startsAt: '2026-12-01T08:00', endsAt: '2026-12-01T12:00', timeZone: 'UTC' },
})
export const subscribed = call('/client/v1/user/updateSubscription', { doc: { level: 'project', target: 'p', alerts: 2, deviations: 1, channel: null } })
export const invoiced = call('/client/v1/admin/createInvoice', { organizationId: 'o', invoice: { total: '1250.00', currency: 'EUR', status: 'open', dueOn: '2026-12-31T00:00:00.000Z', sentOn: null } })
export const disabled = call('/client/v1/admin/updateUser', { uid: 'u', disabled: true, customClaims: { admin: false } })
export const profile = call('/client/v1/user/updateProfile', { timeZone: 'Europe/Berlin', preferenceSidebarCollapsed: true })
export const renamed = call('/client/v1/project/update', { organizationId: 'o', projectId: 'p', doc: { name: 'Main Stage', parentId: null } })
`,
  // each line is one mistake the types must catch: an unknown field, nested or not, and a wrong enum value
  wrongBody: `
export const a = call('/client/v1/agent/locationUpdate', { organizationId: 'o', agentId: 'a', useLocationMode: 'manual', colour: 'red' })
export const b = call('/client/v1/project/windowCreate', { organizationId: 'o', projectId: 'p', window: { kind: 'party', recurrence: 'weekly', weekdays: [1], startTime: '18:00', endTime: '23:00', timeZone: 'UTC' } })
export const c = call('/client/v1/admin/createInvoice', { organizationId: 'o', invoice: { total: '1', amount: 2 } })
export const d = call('/client/v1/user/updateSubscription', { doc: { level: 'site' } })
`,
  wrong: `
declare const agents: Answer<'/client/v1/agent/list'>
export const connected: boolean = agents.agents[0].connected
`,
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixelfleet-openapi-'))
  const document = await loader().json()
  fs.writeFileSync(path.join(dir, 'api.ts'), astToString(await openapiTS(document)))
  errors = await typeErrors(clients)
}, 600_000)

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

describe('a client typed from openapi.json (openapi-typescript)', () => {
  it('generates types that compile', () => {
    expect(errors.other ?? []).toEqual([])
    expect(errors.api ?? []).toEqual([])
  })

  it('reads real fields of several calls', () => {
    expect(errors.reads).toEqual([])
  })

  it('sends typed bodies to calls that took open bodies before (agent, window, subscription, invoice, user, profile, project)', () => {
    expect(errors.writes).toEqual([])
  })

  it('refuses a body with an unknown field or a wrong enum value, one error per mistake', () => {
    expect(errors.wrongBody.join('\n')).toMatch(/'colour' does not exist/)
    expect(errors.wrongBody.join('\n')).toMatch(/'"party"' is not assignable/)
    expect(errors.wrongBody.join('\n')).toMatch(/'amount' does not exist/)
    expect(errors.wrongBody.join('\n')).toMatch(/'"site"' is not assignable/)
    expect(errors.wrongBody).toHaveLength(4)
  })

  it('rejects a field the answer does not have, so the check above is not vacuous', () => {
    expect(errors.wrong.join('\n')).toMatch(/Property 'connected' does not exist/)
  })

  it('types no success answer as never, unknown or a bare object', () => {
    expect(errors.untyped).toEqual([])
  })
})
