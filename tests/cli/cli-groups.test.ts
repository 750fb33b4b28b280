import http from 'node:http'
import { type AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { portalDb, startPortal, type RunningPortal } from '../e2e/harness'
import { cliSession } from './cli-session'

/** `pixelfleet issues`, `windows` and `channels` (issue #29) against a running portal. */
const ORG = 'demo-org-live-events'

let portal: RunningPortal
let cli: Awaited<ReturnType<typeof cliSession>>
let hook: http.Server
const hookBodies: string[] = []
let mainStageId = ''
const issueIds = { critical: '', warning: '', cleared: '' }

beforeAll(async () => {
  // every answer is also checked against its call's output schema; channels may post to this machine (the test receiver)
  portal = await startPortal({ API_CHECK_OUTPUT: 'true', CHANNEL_ALLOW_PRIVATE: 'true' })
  // Issues come from agents; here they are written straight into the portal's database (before the
  // CLI's first call, so no pooled connection idles meanwhile).
  const db = await portalDb(portal)
  try {
    mainStageId = (await db.project.findFirstOrThrow({ where: { organizationId: ORG, name: 'Main Stage' } })).id
    const agent = await db.agent.create({ data: { clientName: 'Issue Wall', product: 'VX1000', serial: 'SN-ISSUES', secretHash: 'x', organizationId: ORG } })
    const system = await db.system.create({ data: { agentId: agent.id, key: 'sys-issues', name: 'Issue Wall System', projectId: mainStageId } })
    const now = Date.now()
    const issue = (key: string, severity: number, isActive: boolean, minutesAgo: number) =>
      db.issue.create({ data: { systemId: system.id, kind: 'alert', key, component: 'receiver', message: `${key} message`, severity, latestCount: 1, latestAt: new Date(now - minutesAgo * 60_000), isActive, activation: 1 } })
    issueIds.critical = (await issue('recv.cliCritical', 2, true, 1)).id
    issueIds.warning = (await issue('recv.cliWarning', 4, true, 2)).id
    issueIds.cleared = (await issue('recv.cliCleared', 3, false, 3)).id
  } finally {
    await db.$disconnect()
  }
  hook = http.createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      hookBodies.push(body)
      response.writeHead(200).end('ok')
    })
  })
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve))
  cli = await cliSession(portal)
}, 300_000)

afterAll(async () => {
  cli?.cleanup()
  hook?.close()
  await portal?.stop()
})

type IssueRow = { id: string; severity: number; acknowledged: boolean; isActive: boolean }
const ids = (list: { issues: IssueRow[] }) => list.issues.map((i) => i.id)

describe('pixelfleet issues, windows and channels against a running portal', () => {
  it('issues: list with project, severity and state filters in JSON and CSV; show; acknowledge', async () => {
    const active = await cli.json<{ issues: IssueRow[] }>('owner', 'issues', 'list', '--org', ORG, '--project', 'Main Stage')
    expect(ids(active)).toEqual(expect.arrayContaining([issueIds.critical, issueIds.warning]))
    expect(ids(active)).not.toContain(issueIds.cleared)
    // worst first
    expect(ids(active).indexOf(issueIds.critical)).toBeLessThan(ids(active).indexOf(issueIds.warning))

    const critical = await cli.json<{ issues: IssueRow[] }>('owner', 'issues', 'list', '--org', ORG, '--project', mainStageId, '--severity', 'critical')
    expect(critical.issues.every((i) => i.severity === 2)).toBe(true)
    expect(ids(critical)).toContain(issueIds.critical)
    expect(ids(await cli.json<{ issues: IssueRow[] }>('owner', 'issues', 'list', '--org', ORG, '--project', 'Main Stage', '--state', 'all'))).toContain(issueIds.cleared)
    // without --project: every project the caller sees
    expect(ids(await cli.json<{ issues: IssueRow[] }>('owner', 'issues', 'list', '--org', ORG, '--severity', 'warning,2'))).toEqual(expect.arrayContaining([issueIds.critical, issueIds.warning]))

    const csv = await cli.run('owner', 'issues', 'list', '--org', ORG, '--project', 'Main Stage', '--output', 'csv')
    expect(csv.code).toBe(0)
    const lines = csv.stdout.split('\r\n').filter(Boolean)
    expect(lines[0]).toBe('id,severity,state,agent,system,message,count,latest')
    expect(lines.find((l) => l.includes(issueIds.critical))).toContain(',critical,active,Issue Wall,Issue Wall System,recv.cliCritical message,')

    const shown = await cli.run('owner', 'issues', 'show', issueIds.critical, '--org', ORG)
    expect(shown.code).toBe(0)
    expect(shown.stdout).toMatch(/severity\s+critical/)

    const acked = await cli.json<{ issueId: string; acknowledgedAt: string }>('owner', 'issues', 'acknowledge', issueIds.critical, '--org', ORG, '--comment', 'on it')
    expect(acked.issueId).toBe(issueIds.critical)
    expect(ids(await cli.json<{ issues: IssueRow[] }>('owner', 'issues', 'list', '--org', ORG, '--project', 'Main Stage', '--state', 'active-ack'))).toEqual([issueIds.critical])
    const again = await cli.run('owner', 'issues', 'acknowledge', issueIds.critical, '--org', ORG)
    expect(again.code).toBe(2)
    expect(again.stderr).toContain('already acknowledged')

    const withdrawn = await cli.json<{ issueId: string }>('owner', 'issues', 'unacknowledge', issueIds.critical, '--org', ORG, '--comment', 'not fixed after all')
    expect(withdrawn.issueId).toBe(issueIds.critical)
    expect(ids(await cli.json<{ issues: IssueRow[] }>('owner', 'issues', 'list', '--org', ORG, '--project', 'Main Stage', '--state', 'active-unack'))).toEqual(expect.arrayContaining([issueIds.critical]))
    const detail = await cli.json<{ comments: { kind: string; text: string }[] }>('owner', 'issues', 'show', issueIds.critical, '--org', ORG)
    expect(detail.comments.map((c) => c.kind)).toEqual(expect.arrayContaining(['ack', 'unack']))
    const notAcked = await cli.run('owner', 'issues', 'unacknowledge', issueIds.critical, '--org', ORG)
    expect(notAcked.code).toBe(2)
    expect(notAcked.stderr).toContain('not acknowledged')
    expect((await cli.run('owner', 'issues', 'show', 'no-such-issue', '--org', ORG)).code).toBe(5)
  }, 300_000)

  it('windows: create once and weekly, list as JSON and CSV, update, delete', async () => {
    const once = await cli.json<{ window: { id: string; recurrence: string; startsAt: string; timeZone: string } }>(
      'owner', 'windows', 'create', '--org', ORG, '--project', 'Main Stage', '--name', 'Rigging', '--starts', '2030-03-01T08:00', '--ends', '2030-03-01T12:00', '--time-zone', 'Europe/Berlin',
    )
    expect(once.window).toMatchObject({ recurrence: 'once', timeZone: 'Europe/Berlin', startsAt: '2030-03-01T07:00:00.000Z' })
    const weekly = await cli.json<{ window: { id: string; kind: string; weekdays: number[]; severities: number[] } }>(
      'owner', 'windows', 'create', '--org', ORG, '--project', 'Main Stage', '--kind', 'show', '--weekdays', 'fri,sat', '--start-time', '18:00', '--end-time', '23:30', '--time-zone', 'UTC', '--severities', 'critical,error',
    )
    expect(weekly.window).toMatchObject({ kind: 'show', weekdays: [5, 6], severities: [2, 3] })

    const list = await cli.json<{ windows: { id: string; name: string }[] }>('owner', 'windows', 'list', '--org', ORG, '--project', 'Main Stage')
    expect(list.windows.map((w) => w.id)).toEqual(expect.arrayContaining([once.window.id, weekly.window.id]))
    const csv = await cli.run('owner', 'windows', 'list', '--org', ORG, '--project', 'Main Stage', '--output', 'csv')
    expect(csv.stdout.split('\r\n')[0]).toBe('id,kind,name,recurrence,when,timeZone,severities,activeUntil,inherited')
    expect(csv.stdout).toContain(`${weekly.window.id},show,,weekly,"Fri,Sat 18:00-23:30",UTC,"2,3",`)

    // options not given keep their values
    const updated = await cli.json<{ window: { name: string; weekdays: number[]; startTime: string } }>('owner', 'windows', 'update', weekly.window.id, '--org', ORG, '--project', 'Main Stage', '--name', 'Weekend shows', '--start-time', '17:00')
    expect(updated.window).toMatchObject({ name: 'Weekend shows', weekdays: [5, 6], startTime: '17:00' })

    expect((await cli.run('owner', 'windows', 'delete', once.window.id, '--org', ORG)).code).toBe(0)
    const after = await cli.json<{ windows: { id: string }[] }>('owner', 'windows', 'list', '--org', ORG, '--project', 'Main Stage')
    expect(after.windows.map((w) => w.id)).not.toContain(once.window.id)
    expect((await cli.run('owner', 'windows', 'update', once.window.id, '--org', ORG, '--project', 'Main Stage', '--name', 'Gone')).code).toBe(5)
  }, 300_000)

  it('channels: create, list, test (delivered to a local receiver), delete', async () => {
    const target = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/pixelfleet`
    const created = await cli.json<{ channel: { id: string; type: string }; secret: string | null }>('owner', 'channels', 'create', 'Ops hook', '--org', ORG, '--type', 'webhook', '--target', target)
    expect(created.channel.type).toBe('webhook')
    expect(created.secret).toBeTruthy()
    const table = await cli.run('owner', 'channels', 'list', '--org', ORG)
    expect(table.stdout).toMatch(new RegExp(`${created.channel.id}\\s+Ops hook\\s+webhook`))

    const tested = await cli.json<{ message: string; delivery: { status: string } | null }>('owner', 'channels', 'test', created.channel.id, '--org', ORG)
    expect(tested.message).toBe('Test message delivered')
    expect(hookBodies.some((b) => b.includes('Test notification'))).toBe(true)

    const csv = await cli.run('owner', 'channels', 'list', '--org', ORG, '--output', 'csv')
    expect(csv.stdout.split('\r\n')[0]).toBe('id,name,type,url,created,lastDelivery')
    expect((await cli.run('owner', 'channels', 'delete', created.channel.id, '--org', ORG)).code).toBe(0)
    expect((await cli.json<{ channels: { id: string }[] }>('owner', 'channels', 'list', '--org', ORG)).channels.map((c) => c.id)).not.toContain(created.channel.id)
  }, 300_000)

  it('refuses a project-only member where the project role does not reach (exit 4)', async () => {
    // Mark Member: Project Viewer on Main Stage, his organization role removed -> project-only member.
    expect((await cli.run('owner', 'projects', 'assign-role', 'Main Stage', '--org', ORG, '--member', 'demo-user-org-member', '--role', 'role-prj-viewer-0000')).code).toBe(0)
    const { members } = await cli.json<{ members: { id: string; accessRights: { id: string; scopeName: string }[] }[] }>('owner', 'members', 'list', '--org', ORG)
    const orgRight = members.find((m) => m.id === 'demo-user-org-member')!.accessRights.find((r) => r.scopeName === 'Organization')!
    expect((await cli.run('owner', 'members', 'unset-role', orgRight.id, '--org', ORG)).code).toBe(0)

    // he sees his project's issues and windows ...
    expect(ids(await cli.json<{ issues: IssueRow[] }>('member', 'issues', 'list', '--org', ORG, '--project', 'Main Stage'))).toContain(issueIds.warning)
    expect((await cli.run('member', 'windows', 'list', '--org', ORG, '--project', 'Main Stage')).code).toBe(0)
    // ... but may not change them, nor touch the organization's channels
    for (const args of [
      ['issues', 'acknowledge', issueIds.warning, '--org', ORG],
      ['issues', 'unacknowledge', issueIds.warning, '--org', ORG],
      ['windows', 'create', '--org', ORG, '--project', 'Main Stage', '--weekdays', 'mon', '--start-time', '01:00', '--end-time', '02:00', '--time-zone', 'UTC'],
      ['channels', 'list', '--org', ORG],
      ['channels', 'create', 'Sneaky', '--org', ORG, '--type', 'webhook', '--target', 'https://hooks.example.com/x'],
    ]) {
      const result = await cli.run('member', ...args)
      expect({ args, code: result.code }).toEqual({ args, code: 4 })
    }
  }, 300_000)

  it('refuses bad arguments with exit code 2 and a clear message, changing nothing', async () => {
    const cases: [string[], string][] = [
      [['issues', 'list', '--org', ORG, '--severity', 'fatal'], "--severity takes critical, error, warning, notice, info (comma-separated), not 'fatal'"],
      [['issues', 'list', '--org', ORG, '--state', 'open'], '--state must be active, active-unack, active-ack, cleared, all'],
      [['issues', 'list', '--org', ORG, '--project', 'Main Stage', '--agent', 'a1'], 'Give --project or --agent, not both'],
      [['issues', 'list', '--org', ORG, '--limit', '0'], '--limit must be 1 to 10000'],
      [['windows', 'create', '--org', ORG, '--project', 'Main Stage', '--weekdays', 'funday', '--start-time', '01:00', '--end-time', '02:00'], "--weekdays takes day names"],
      [['windows', 'create', '--org', ORG, '--project', 'Main Stage', '--kind', 'party', '--starts', '2030-01-01T00:00', '--ends', '2030-01-01T01:00'], '--kind must be maintenance or show'],
      [['windows', 'create', '--org', ORG, '--project', 'Main Stage', '--starts', '2030-01-01T00:00', '--weekdays', 'mon'], 'not both'],
      // checked by the portal: the same messages as the web form's
      [['windows', 'create', '--org', ORG, '--project', 'Main Stage', '--starts', '2030-01-01T00:00'], 'End is required'],
      [['windows', 'create', '--org', ORG, '--project', 'Main Stage', '--weekdays', 'mon', '--start-time', '25:00', '--end-time', '02:00', '--time-zone', 'UTC'], 'Start time must be HH:MM'],
      [['channels', 'create', 'Pager', '--org', ORG, '--type', 'pager', '--target', 'https://hooks.example.com/x'], '--type must be webhook, slack, teams'],
      [['channels', 'create', 'No target', '--org', ORG, '--type', 'webhook'], "required option '--target <url>'"],
    ]
    for (const [args, message] of cases) {
      const result = await cli.run('owner', ...args)
      expect({ args, code: result.code }).toEqual({ args, code: 2 })
      expect(result.stderr).toContain(message)
    }
    const windows = await cli.json<{ windows: { name: string }[] }>('owner', 'windows', 'list', '--org', ORG, '--project', 'Main Stage')
    expect(windows.windows.map((w) => w.name)).not.toContain('party')
  }, 300_000)

  it('offers the new groups in shell completion', async () => {
    const bash = await cli.run('nobody', 'completion', 'bash')
    for (const path of ['issues list', 'issues acknowledge', 'issues unacknowledge', 'windows create', 'channels test']) expect(bash.stdout).toContain(`"${path}"`)
    expect(bash.stdout).toMatch(/"windows create"\) words='[^']*--time-zone/)
  })
})
