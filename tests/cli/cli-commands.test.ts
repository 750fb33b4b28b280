import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { portalDb, startPortal, type RunningPortal } from '../e2e/harness'
import { agentsWithCodes, cliSession } from './cli-session'
import { csvCell } from '../../app/utils/csv'

const ORG = 'demo-org-live-events'
const ORG_NAME = 'Demo Live Events'
const root = path.resolve(import.meta.dirname, '../..')

let portal: RunningPortal
let cli: Awaited<ReturnType<typeof cliSession>>

beforeAll(async () => {
  // every answer is also checked against its call's output schema (docs/decisions/034)
  portal = await startPortal({ API_CHECK_OUTPUT: 'true' })
  cli = await cliSession(portal)
})

afterAll(async () => {
  cli?.cleanup()
  await portal?.stop()
})

describe('pixelfleet command groups against a running portal', () => {
  it('takes an id that starts with a dash (1 in 64 generated ids does) as an id', async () => {
    expect((await cli.run('owner', 'invites', 'create', 'dash@example.com', '--org', ORG, '--role', 'role-org-viewer-0000')).code).toBe(0)
    const dashed = '-dashedInvite-00001_'
    const db = await portalDb(portal)
    try {
      await db.invite.updateMany({ where: { recipient: 'dash@example.com' }, data: { id: dashed } })
    } finally {
      await db.$disconnect()
    }
    const ids = async () => (await cli.json<{ invites: { id: string }[] }>('owner', 'invites', 'list', '--org', ORG)).invites.map((i) => i.id)
    expect(await ids()).toContain(dashed)
    expect((await cli.run('owner', 'invites', 'revoke', dashed, '--json')).code).toBe(0)
    expect(await ids()).not.toContain(dashed)
    // the ordinary `--` still ends the options (the invite is gone now: 5, not found)
    expect((await cli.run('owner', 'invites', 'revoke', '--json', '--', dashed)).code).toBe(5)
  })

  it('refuses bad arguments with exit code 2 before changing anything', async () => {
    const cases: [string[], string][] = [
      [['orgs', 'list', '--output', 'xml'], '--output must be table, csv or json'],
      [['orgs', 'update', ORG], 'Give --name and/or --description'],
      [['orgs', 'delete', ORG], 'add --yes to confirm'],
      [['projects', 'list'], "required option '--org <id|name>'"],
      [['agents', 'list'], '--org <id|name> is required'],
      [['agents', 'list', '--org', ORG, '--connected', '--disconnected'], 'not both'],
      [['enroll', 'ABC-DE-FG1', '--org', ORG, '--project', 'Main Stage'], "Invalid enrollment code 'ABC-DE-FG1'"],
      [['enroll', 'ABCDEFG', '--org', ORG, '--project', 'Main Stage'], 'expected XXX-XX-XXX'],
      [['notes', 'create', 'hi', '--org', ORG, '--color', 'purple'], '--color must be one of'],
      [['audit', 'list', '--org', ORG, '--limit', '0'], '--limit must be 1 to 1000'],
      [['usage', 'report', '--org', ORG, '--period', 'weekly'], '--period must be monthly, daily or hourly'],
      [['roles', 'create', 'X', '--org', ORG, '--scope', 'galaxy'], '--scope must be organization, project or global'],
      [['admin', 'users', 'update', 'u1'], 'Give --disabled and/or --admin'],
      [['completion', 'tcsh'], "Unknown shell 'tcsh'"],
    ]
    for (const [args, message] of cases) {
      const result = await cli.run('owner', ...args)
      expect({ args, code: result.code }).toEqual({ args, code: 2 })
      expect(result.stderr).toContain(message)
    }
    // --json errors are one JSON object on stderr; stdout stays empty.
    const jsonError = await cli.run('owner', 'enroll', 'ABC-DE-FG1', '--org', ORG, '--project', 'Main Stage', '--json')
    expect(jsonError.stdout).toBe('')
    expect(JSON.parse(jsonError.stderr)).toMatchObject({ error: { exitCode: 2, code: 'cli/usage' } })
  })

  it('orgs: list in every format, show by name, create, update, delete; ambiguous names and refusals', async () => {
    const { organizations } = await cli.json<{ organizations: { id: string; name: string }[] }>('owner', 'orgs', 'list')
    expect(organizations).toContainEqual(expect.objectContaining({ id: ORG, name: ORG_NAME }))
    const table = await cli.run('owner', 'orgs', 'list')
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+OWNER\s+PROJECTS\s+AGENTS\s+MEMBERS$/)
    expect(table.stdout).toMatch(new RegExp(`${ORG}\\s+${ORG_NAME}\\s+you\\s+5`))

    const shown = await cli.json<{ id: string; owner: { email: string } }>('owner', 'orgs', 'show', 'demo live events')
    expect(shown).toMatchObject({ id: ORG, owner: { email: 'owner@demo.pixelfleet.io' } })

    const created = await cli.json<{ organizationId: string }>('owner', 'orgs', 'create', '=HYPERLINK("x")', '--description', 'from the CLI')
    const csv = await cli.run('owner', 'orgs', 'list', '--output', 'csv')
    expect(csv.stdout.split('\r\n')[0]).toBe('id,name,owner,projects,agents,members')
    // A formula-looking name is written as text, never as a formula.
    expect(csv.stdout).toContain(`${created.organizationId},"'=HYPERLINK(""x"")",you,0,0,1`)

    const twin1 = await cli.json<{ organizationId: string }>('owner', 'orgs', 'create', 'Twin Org')
    const twin2 = await cli.json<{ organizationId: string }>('owner', 'orgs', 'create', 'Twin Org')
    const ambiguous = await cli.run('owner', 'projects', 'list', '--org', 'Twin Org')
    expect(ambiguous.code).toBe(2)
    expect(ambiguous.stderr).toContain(`Several organizations are named 'Twin Org'; give its id: ${[twin1.organizationId, twin2.organizationId].sort().join(' (Twin Org), ')}`.slice(0, 60))
    expect(ambiguous.stderr).toContain(twin2.organizationId)

    expect((await cli.run('owner', 'orgs', 'update', twin1.organizationId, '--name', 'Twin One')).stdout).toContain('Updated name of organization')
    expect((await cli.json('owner', 'orgs', 'show', 'Twin One')).id).toBe(twin1.organizationId)
    expect((await cli.run('owner', 'orgs', 'delete', 'Twin One', '--yes')).code).toBe(0)
    expect((await cli.run('owner', 'orgs', 'delete', twin2.organizationId, '--yes')).code).toBe(0)

    const viewerRename = await cli.run('viewer', 'orgs', 'update', ORG, '--name', 'Hijacked')
    expect(viewerRename.code).toBe(4)
    expect(viewerRename.stderr).toContain('insufficient access rights')
    expect((await cli.run('viewer', 'orgs', 'show', 'not-my-organization0')).code).toBe(4)
    expect((await cli.run('nobody', 'orgs', 'list')).code).toBe(3)
  })

  it('projects: tree, create under a parent by name, show, update, members, delete; read-only users refused', async () => {
    const tree = await cli.run('owner', 'projects', 'tree', '--org', ORG_NAME)
    expect(tree.stdout).toContain('Main Stage  (demo-prj-main-stage0, 0 systems)\n  Stage Left Wall  (demo-prj-stage-left0')
    const treeJson = await cli.json<{ projects: { name: string; subRows: { name: string }[] }[] }>('owner', 'projects', 'tree', '--org', ORG)
    expect(treeJson.projects.find((p) => p.name === 'Virtual Production')?.subRows.map((s) => s.name)).toEqual(['Volume A'])

    const created = await cli.json<{ projectId: string }>('owner', 'projects', 'create', 'CLI Riser', '--org', ORG, '--parent', 'Main Stage', '--description', 'made by a script')
    const shown = await cli.json<{ parentId: string; description: string }>('owner', 'projects', 'show', 'cli riser', '--org', ORG)
    expect(shown).toMatchObject({ parentId: 'demo-prj-main-stage0', description: 'made by a script' })
    expect((await cli.run('owner', 'projects', 'update', 'CLI Riser', '--org', ORG, '--name', 'CLI Riser 2', '--parent', 'none')).code).toBe(0)
    const list = await cli.run('owner', 'projects', 'list', '--org', ORG, '--output', 'csv')
    expect(list.stdout).toContain(`${created.projectId},CLI Riser 2,,0,made by a script`)
    const members = await cli.json<{ members: { email: string; inheritedRoles: { roleName: string }[] }[] }>('owner', 'projects', 'members', 'Main Stage', '--org', ORG)
    expect(members.members.map((m) => m.email)).toContain('viewer@demo.pixelfleet.io')

    const refused = await cli.run('viewer', 'projects', 'create', 'Nope', '--org', ORG)
    expect(refused.code).toBe(4)
    expect((await cli.run('owner', 'projects', 'show', 'No Such Project', '--org', ORG)).code).toBe(5)
    expect((await cli.run('owner', 'projects', 'delete', 'CLI Riser 2', '--org', ORG)).code).toBe(0)
    expect((await cli.run('owner', 'projects', 'show', created.projectId, '--org', ORG)).code).toBe(5)
  })

  it('members, roles and invites; a project-only member sees only its project and gets 4 elsewhere', async () => {
    const roles = await cli.run('owner', 'roles', 'list', '--org', ORG)
    expect(roles.stdout).toMatch(/role-prj-viewer-0000\s+Project Viewer\s+Project\s+global/)
    const role = await cli.json<{ id: string }>('owner', 'roles', 'create', 'Stage Hand', '--org', ORG, '--scope', 'project', '--permissions', 'project.view,agent.list')
    expect((await cli.run('owner', 'roles', 'update', role.id, '--name', 'Stage Crew')).code).toBe(0)
    expect((await cli.json<{ roles: { id: string; name: string }[] }>('owner', 'roles', 'list', '--org', ORG)).roles).toContainEqual(expect.objectContaining({ id: role.id, name: 'Stage Crew' }))
    expect((await cli.run('member', 'roles', 'delete', role.id, '--org', ORG)).code).toBe(4)
    expect((await cli.run('owner', 'roles', 'delete', role.id, '--org', ORG)).code).toBe(0)
    expect((await cli.run('viewer', 'roles', 'create', 'Sneaky', '--org', ORG, '--scope', 'organization')).code).toBe(4)

    // Mark Member: a role on Main Stage, then his organization role removed -> project-only member.
    expect((await cli.run('owner', 'projects', 'assign-role', 'Main Stage', '--org', ORG, '--member', 'demo-user-org-member', '--role', 'role-prj-viewer-0000')).code).toBe(0)
    const holders = await cli.json<{ accessRights: { userId: string; projectName: string }[] }>('owner', 'roles', 'holders', 'role-prj-viewer-0000', '--org', ORG)
    expect(holders.accessRights).toEqual([expect.objectContaining({ userId: 'demo-user-org-member', projectName: 'Main Stage' })])
    const { members } = await cli.json<{ members: { id: string; accessRights: { id: string; scopeName: string }[] }[] }>('owner', 'members', 'list', '--org', ORG)
    const orgRight = members.find((m) => m.id === 'demo-user-org-member')!.accessRights.find((r) => r.scopeName === 'Organization')!
    expect((await cli.run('owner', 'members', 'unset-role', orgRight.id, '--org', ORG)).code).toBe(0)

    const seen = await cli.json<{ projects: { name: string }[] }>('member', 'projects', 'list', '--org', ORG_NAME)
    expect(seen.projects.map((p) => p.name)).toEqual(['Main Stage', 'Stage Left Wall', 'Stage Right Wall'])
    for (const args of [
      ['members', 'list', '--org', ORG],
      ['audit', 'list', '--org', ORG],
      ['invites', 'create', 'x@example.com', '--org', ORG, '--role', 'role-org-viewer-0000'],
      ['projects', 'create', 'Mine', '--org', ORG],
    ]) {
      const result = await cli.run('member', ...args)
      expect({ args, code: result.code }).toEqual({ args, code: 4 })
    }

    const invited = await cli.run('owner', 'invites', 'create', 'crew@example.com', '--org', ORG, '--role', 'role-org-viewer-0000', '--project', 'Volume A', '--project-role', 'role-prj-viewer-0000')
    expect(invited.code).toBe(0)
    const invites = await cli.json<{ invites: { id: string; recipient: string; projects: { name: string }[] }[] }>('owner', 'invites', 'list', '--org', ORG)
    const invite = invites.invites.find((i) => i.recipient === 'crew@example.com')!
    expect(invite.projects.map((p) => p.name)).toEqual(['Volume A'])
    expect((await cli.run('owner', 'invites', 'revoke', invite.id)).code).toBe(0)
    expect((await cli.json<{ invites: unknown[] }>('viewer', 'invites', 'list', '--mine')).invites).toEqual([])
    expect((await cli.run('owner', 'members', 'add', 'nobody@example.com', '--org', ORG, '--role', 'role-org-viewer-0000')).code).not.toBe(0)
  })

  it('agents: bulk enroll from a file, list filters, assign, export, remove', async () => {
    const [a, b] = await agentsWithCodes(portal, ['Bulk Alpha', 'Bulk Beta'])
    const dir = fs.mkdtempSync(path.join(cli.configHome, 'codes-'))
    const bad = path.join(dir, 'bad.csv')
    fs.writeFileSync(bad, `code,project\n${a.code},Main Stage\nNOT-A-CODE\n`)
    const refused = await cli.run('owner', 'enroll', '--from', bad, '--org', ORG)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('line 3: Invalid enrollment code')

    const file = path.join(dir, 'codes.csv')
    fs.writeFileSync(file, `code,project\n${a.code},Main Stage\n${b.code.toLowerCase()},Volume A\nZZZ-ZZ-ZZZ,Main Stage\n`)
    const bulk = await cli.run('owner', 'enroll', '--from', file, '--org', ORG_NAME, '--json')
    expect(bulk.code).toBe(5) // the unknown code; the others are enrolled
    const report = JSON.parse(bulk.stdout) as { enrolled: number; failed: number; results: { ok: boolean; agentId?: string; projectId?: string }[] }
    expect(report).toMatchObject({ enrolled: 2, failed: 1 })
    expect(report.results.map((r) => [r.ok, r.agentId, r.projectId])).toEqual([
      [true, a.agentId, 'demo-prj-main-stage0'],
      [true, b.agentId, 'demo-prj-volume-a000'],
      [false, undefined, undefined],
    ])

    const inMain = await cli.json<{ agents: { id: string }[] }>('owner', 'agents', 'list', '--org', ORG, '--project', 'Main Stage')
    expect(inMain.agents.map((x) => x.id)).toEqual([a.agentId])
    expect((await cli.json<{ agents: unknown[] }>('owner', 'agents', 'list', '--org', ORG, '--connected')).agents).toEqual([])
    expect((await cli.json<{ agents: unknown[] }>('owner', 'agents', 'list', '--org', ORG, '--disconnected')).agents).toHaveLength(2)
    // The project-only member (previous test) sees only the Main Stage agent.
    expect((await cli.json<{ agents: { id: string }[] }>('member', 'agents', 'list', '--org', ORG)).agents.map((x) => x.id)).toEqual([a.agentId])

    expect((await cli.run('owner', 'agents', 'assign', b.agentId, '--org', ORG, '--project', 'Stage Left Wall')).code).toBe(0)
    const systems = await cli.run('owner', 'agents', 'systems', b.agentId, '--org', ORG)
    expect(systems.stdout).toMatch(/sys-1\s+Main Wall\s+Stage Left Wall/)
    const exported = await cli.run('owner', 'agents', 'export', '--org', ORG)
    const lines = exported.stdout.split('\r\n')
    expect(lines[0]).toBe('Agent ID,Agent Name,Product,Serial,Version,Connected,Last Seen,System ID,System Key,System Name,Project ID,Project')
    // The id cell is formula-safe: an id starting with '-' (1 in 64) is exported as '-...
    expect(lines.find((l) => l.startsWith(`${csvCell(b.agentId)},`))).toMatch(/,sys-1,Main Wall,demo-prj-stage-left0,Stage Left Wall$/)

    expect((await cli.run('viewer', 'agents', 'remove', a.agentId, '--org', ORG)).code).toBe(4)
    expect((await cli.run('owner', 'agents', 'remove', a.agentId, '--org', ORG)).code).toBe(0)
    expect((await cli.run('owner', 'agents', 'systems', a.agentId, '--org', ORG)).code).toBe(5)
  })

  it('notes and audit: create, update, archive, delete; audit list and tail --follow until Ctrl-C', async () => {
    const { note } = await cli.json<{ note: { id: string } }>('owner', 'notes', 'create', 'Check the rigging', '--org', ORG, '--color', 'red')
    expect((await cli.run('owner', 'notes', 'update', note.id, '--org', ORG, '--content', 'Rigging checked')).code).toBe(0)
    const listed = await cli.run('owner', 'notes', 'list', '--org', ORG)
    expect(listed.stdout).toMatch(/red\s+Olivia Owner\s+Rigging checked/)
    expect((await cli.run('owner', 'notes', 'archive', note.id, '--org', ORG)).code).toBe(0)
    expect((await cli.json<{ notes: unknown[] }>('owner', 'notes', 'list', '--org', ORG)).notes).toEqual([])
    expect((await cli.json<{ notes: unknown[] }>('owner', 'notes', 'list', '--org', ORG, '--archived')).notes).toHaveLength(1)
    expect((await cli.run('owner', 'notes', 'delete', note.id, '--org', ORG)).code).toBe(0)

    const audit = await cli.json<{ records: { message: string }[] }>('owner', 'audit', 'list', '--org', ORG, '--limit', '30')
    expect(audit.records.map((r) => r.message)).toContain('Removed agent Bulk Alpha from the organization')
    expect((await cli.json<{ records: unknown[] }>('owner', 'audit', 'list', '--org', ORG, '--limit', '3')).records).toHaveLength(3)
    const projectLog = await cli.json<{ records: { message: string }[] }>('owner', 'audit', 'list', '--org', ORG, '--project', 'Stage Left Wall')
    expect(projectLog.records.map((r) => r.message)).toEqual([expect.stringContaining('Assigned system Main Wall of agent Bulk Beta to project Stage Left Wall')])
    const tail = await cli.run('owner', 'audit', 'tail', '--org', ORG, '-n', '2')
    expect(tail.stdout.trim().split('\n')).toHaveLength(2)

    // --follow prints what happens after it started, then ends cleanly on SIGINT.
    // No fixed sleeps: a note is added until the follower prints one (a note added before its first
    // poll counts as old and is rightly not printed), then Ctrl-C.
    const following = cli.start('owner', ['audit', 'tail', '--org', ORG, '-n', '0', '--follow', '--interval', '0.2', '--json'])
    let added = 0
    await vi.waitFor(
      async () => {
        if (!following.live.stdout.includes('Doors at seven')) {
          await cli.api('owner', 'note/create', { organization: ORG, content: `Doors at seven ${++added}`, resourcePath: `/organization/${ORG}` })
          throw new Error('not printed yet')
        }
      },
      { timeout: 60_000, interval: 500 },
    )
    process.emit('SIGINT')
    const followed = await following.done
    expect(followed.code).toBe(0)
    const lines = followed.stdout.trim().split('\n').map((l) => JSON.parse(l) as { message: string })
    expect(lines.length).toBeGreaterThanOrEqual(1)
    for (const line of lines) expect(line.message).toMatch(/Doors at seven \d+/)
  })

  it('usage and admin: site administrators only', async () => {
    const report = await cli.json<{ periods: { period: string; apiCalls: number }[] }>('admin', 'usage', 'report', '--org', ORG_NAME, '--period', 'daily', '--count', '2', '--date', '2026-03-02T12:00:00Z')
    expect(report.periods.map((p) => p.period)).toEqual(['2026-03-02', '2026-03-01'])
    expect((await cli.run('owner', 'usage', 'report', '--org', ORG)).code).toBe(4)
    expect((await cli.run('owner', 'usage', 'events', '--org', ORG)).stdout).toBe('No events.\n')

    const users = await cli.run('admin', 'admin', 'users', 'list', '--output', 'csv')
    expect(users.stdout).toMatch(/demo-user-org-viewer,Vera Viewer,viewer@demo\.pixelfleet\.io,yes,,,/)
    const disabled = await cli.json<{ disabled: boolean }>('admin', 'admin', 'users', 'update', 'demo-user-org-viewer', '--disabled', 'true')
    expect(disabled.disabled).toBe(true)
    expect((await cli.run('viewer', 'orgs', 'list')).code).toBe(3) // disabling ended the viewer's tokens
    expect((await cli.run('admin', 'admin', 'orgs', 'show', ORG_NAME)).stdout).toMatch(/Billing\s+internal \/ monthly/)
    expect((await cli.run('admin', 'admin', 'billing', ORG_NAME, '--status', 'enabled', '--period', 'yearly')).code).toBe(0)
    expect((await cli.json<{ organizations: { id: string; billingStatus: string }[] }>('admin', 'admin', 'orgs', 'list')).organizations).toContainEqual(
      expect.objectContaining({ id: ORG, billingStatus: 'enabled' }),
    )

    const invoice = await cli.json<{ id: string; total: string }>('admin', 'admin', 'invoices', 'create', ORG, '--total', '1250', '--currency', 'eur', '--due', '2026-04-01')
    expect(invoice.total).toBe('1250.00')
    expect((await cli.run('admin', 'admin', 'invoices', 'update', ORG, invoice.id, '--status', 'settled')).code).toBe(0)
    expect((await cli.run('admin', 'admin', 'invoices', 'list', ORG)).stdout).toMatch(/1250\.00 EUR\s+settled\s+2026-04-01/)
    expect((await cli.run('admin', 'admin', 'invoices', 'create', ORG, '--total', 'lots')).code).toBe(2)
    expect((await cli.run('admin', 'admin', 'invoices', 'delete', ORG, invoice.id)).code).toBe(0)

    const message = await cli.json<{ id: string }>('admin', 'admin', 'messages', 'create', 'Maintenance tonight', '--type', 'warning', '--ends', '2099-01-01T00:00:00Z')
    expect((await cli.json<{ messages: { id: string }[] }>('admin', 'admin', 'messages', 'list')).messages.map((m) => m.id)).toContain(message.id)
    expect((await cli.run('admin', 'admin', 'messages', 'create', 'x', '--type', 'loud', '--ends', '2099-01-01')).code).toBe(2)
    expect((await cli.json<{ removed: number }>('admin', 'admin', 'messages', 'clear')).removed).toBe(1)

    for (const args of [['admin', 'users', 'list'], ['admin', 'orgs', 'list'], ['admin', 'messages', 'clear'], ['admin', 'invoices', 'list', ORG]]) {
      const result = await cli.run('owner', ...args)
      expect({ args, code: result.code }).toEqual({ args, code: 4 })
    }
  })

  it('shell completion comes from the command tree; `npm run -s cli` prints clean JSON (no npm banner)', async () => {
    const bash = await cli.run('nobody', 'completion', 'bash')
    const script = path.join(cli.configHome, 'pixelfleet.bash')
    fs.writeFileSync(script, bash.stdout)
    const complete = (...words: string[]) =>
      new Promise<string>((resolve, reject) =>
        execFile('bash', ['-c', `source "$0"; COMP_WORDS=(${words.map((w) => `"${w}"`).join(' ')}); COMP_CWORD=${words.length - 1}; _pixelfleet; echo "\${COMPREPLY[*]}"`, script], (error, stdout) =>
          error ? reject(error) : resolve(stdout.trim()),
        ),
      )
    expect((await complete('pixelfleet', 'pro')).split(' ')).toEqual(['projects'])
    expect((await complete('pixelfleet', 'admin', 'invoices', '')).split(' ')).toEqual(['list', 'create', 'update', 'delete', '--help'])
    expect(await complete('pixelfleet', 'agents', 'list', '--con')).toBe('--connected')
    expect(await complete('pixelfleet', 'orgs', 'list', '--output', 'c')).toBe('csv')
    const fish = await cli.run('nobody', 'completion', 'fish')
    expect(fish.stdout).toContain("complete -c pixelfleet -n '__fish_seen_subcommand_from admin; and not __fish_seen_subcommand_from create-user users orgs billing invoices messages' -a users")
    expect((await cli.run('nobody', 'completion', 'zsh')).stdout).toMatch(/^#compdef pixelfleet\n/)

    // tokens: the member's own API tokens; revoking the one in use signs the CLI out.
    const { tokens } = await cli.json<{ tokens: { id: string; name: string; prefix: string }[] }>('member', 'tokens', 'list')
    expect(tokens.map((t) => t.name)).toEqual(['cli test'])
    expect((await cli.run('member', 'tokens', 'list')).stdout).toMatch(new RegExp(`${tokens[0].id}\\s+cli test\\s+${tokens[0].prefix}`))
    expect((await cli.run('member', 'tokens', 'revoke', 'no-such-token')).code).toBe(5)
    expect((await cli.run('member', 'tokens', 'revoke', tokens[0].id)).code).toBe(0)
    expect((await cli.run('member', 'tokens', 'list')).code).toBe(3)

    // -s drops npm's '> pixelfleet cli' banner, which npm writes to stdout (decision 040)
    const npm = await new Promise<{ code: number; stdout: string }>((resolve) =>
      execFile(
        'npm',
        ['run', '-s', 'cli', '--', 'orgs', 'list', '--json'],
        { cwd: root, env: { ...process.env, PIXELFLEET_URL: portal.url, PIXELFLEET_TOKEN: cli.tokens.owner, XDG_CONFIG_HOME: cli.configHome } },
        (error, stdout) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout }),
      ),
    )
    expect(npm.code).toBe(0)
    expect(JSON.parse(npm.stdout).organizations).toContainEqual(expect.objectContaining({ id: ORG }))
  })
})
