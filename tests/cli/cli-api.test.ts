import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startPortal, type RunningPortal } from '../e2e/harness'
import { DEMO, DEMO_PASSWORD, cliSession } from './cli-session'

const ORG = 'demo-org-live-events'

let portal: RunningPortal
let cli: Awaited<ReturnType<typeof cliSession>>

beforeAll(async () => {
  // Every answer in this file is also checked against its call's output schema (a drift is a 500).
  portal = await startPortal({ API_CHECK_OUTPUT: 'true' })
  cli = await cliSession(portal)
}, 180_000)

afterAll(async () => {
  cli?.cleanup()
  await portal?.stop()
})

type Token = { id: string; name: string; scope: string; expiresAt: string | null; permissions: string[] }

describe('pixelfleet api, tokens create and login --scope/--expires against a running portal', () => {
  it('runs a list call as JSON, a table and CSV', async () => {
    const { projects } = await cli.json<{ projects: { id: string; name: string }[] }>('owner', 'api', 'project/list', '--organization-id', ORG)
    expect(projects.length).toBeGreaterThan(0)
    const args = ['api', 'issue/list', '--organization-id', ORG, '--project-id', projects[0].id, '--state', 'all']
    const issues = await cli.json<{ issues: { id: string; severity: number }[]; total: number }>('owner', ...args)
    expect(typeof issues.total).toBe('number')
    const csv = await cli.run('owner', ...args, '--output', 'csv')
    expect(csv.code).toBe(0)
    expect(csv.stdout.split('\r\n')[0].split(',')).toEqual(expect.arrayContaining(['id', 'severity', 'message', 'acknowledged']))
    expect(csv.stdout.split('\r\n').filter(Boolean)).toHaveLength(1 + issues.issues.length)
    const table = await cli.run('owner', 'api', 'project/windowList', '--organization-id', ORG, '--project-id', projects[0].id)
    expect(table.code).toBe(0)
  }, 120_000)

  it('sends typed fields and reports a missing one as a usage error', async () => {
    const missing = await cli.run('owner', 'api', 'issue/get', '--organization-id', ORG)
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('issue/get needs --issue-id')
    const notFound = await cli.run('owner', 'api', 'issue/get', '--organization-id', ORG, '--issue-id', 'no-such-issue')
    expect(notFound.code).toBe(5)
    const org = await cli.json<{ id: string; capabilities: { canUpdate: boolean } }>('owner', 'api', 'organization/get', '--id', ORG)
    expect(org.id).toBe(ORG)
    expect(org.capabilities.canUpdate).toBe(true)
  }, 120_000)

  it('creates a read-only token that expires (tokens create)', async () => {
    const created = await cli.json<Token & { token: string }>('member', 'tokens', 'create', '--name', 'ci read', '--scope', 'read', '--expires', '7')
    expect(created.scope).toBe('read')
    expect(created.token).toMatch(/\S{20,}/)
    const days = (Date.parse(created.expiresAt!) - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(6)
    expect(days).toBeLessThanOrEqual(7)
    const bad = await cli.run('member', 'tokens', 'create', '--name', 'x', '--expires', '5')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--expires must be 1, 7, 30 or 90')
  }, 120_000)

  it('logs in with a scoped, expiring token (login --scope --expires)', async () => {
    const login = await cli.json<{ tokenId: string }>('nobody', 'login', '--email', DEMO.viewer, '--password', DEMO_PASSWORD, '--name', 'scoped login', '--scope', 'read', '--expires', '1')
    const { tokens } = await cli.json<{ tokens: Token[] }>('viewer', 'tokens', 'list')
    const token = tokens.find((t) => t.id === login.tokenId)!
    expect(token.scope).toBe('read')
    expect(token.expiresAt).not.toBeNull()
    // a bad scope is refused before the sign-in
    const bad = await cli.run('nobody', 'login', '--email', DEMO.viewer, '--password', DEMO_PASSWORD, '--scope', 'everything')
    expect(bad.code).toBe(2)
  }, 120_000)
})
