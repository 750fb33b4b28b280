import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { portalDb, startPortal, type RunningPortal } from '../e2e/harness'
import { cliSession, randomCode } from './cli-session'

const OWNER = { email: 'owner@demo.pixelfleet.io', password: 'Pixelfleet-demo-1' }
const DEMO_ORG = 'demo-org-live-events'

let portal: RunningPortal
let session: Awaited<ReturnType<typeof cliSession>>
let configHome: string

beforeAll(async () => {
  // every answer is also checked against its call's output schema (docs/decisions/034)
  portal = await startPortal({ API_CHECK_OUTPUT: 'true' })
  // No tokens made up front: these tests log in themselves and count the owner's tokens.
  session = await cliSession(portal, { tokens: false })
  configHome = session.configHome
})

afterAll(async () => {
  session?.cleanup()
  await portal?.stop()
})

/** Runs the CLI in this process (main(argv), as the bin does), with no token but the stored login. */
const cli = (...args: string[]) => session.run('nobody', ...args)

const configFile = () => path.join(configHome, 'pixelfleet', 'config.json')

/** An agent that registered and shows an enrollment code, written straight into the portal's database. */
async function agentWithCode(name: string) {
  const db = await portalDb(portal)
  try {
    const agent = await db.agent.create({ data: { clientName: name, product: 'VX1000', serial: `SN-${name}`, secretHash: 'x' } })
    await db.system.create({ data: { agentId: agent.id, key: 'sys-1', name: 'Main Wall' } })
    const code = randomCode()
    await db.enrollmentCode.create({ data: { agentId: agent.id, code: code.replace(/-/g, '') } })
    return { agentId: agent.id, code }
  } finally {
    await db.$disconnect()
  }
}

describe('pixelfleet CLI against a running portal', () => {
  it('refuses bad usage with exit code 2 before calling the portal', async () => {
    const unknown = await cli('frobnicate')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("unknown command 'frobnicate'")

    const missingOrg = await cli('agents', 'list')
    expect(missingOrg).toMatchObject({ code: 2 })
    expect(missingOrg.stderr).toContain('--org <id|name> is required')

    const badCode = await cli('enroll', '**-**', '--org', DEMO_ORG, '--project', 'Main Stage')
    expect(badCode.code).toBe(2)
    expect(badCode.stderr).toContain('Invalid enrollment code')

    const noProject = await cli('enroll', 'ABC-DE-FGH', '--org', DEMO_ORG)
    expect(noProject.code).toBe(2)
    expect(noProject.stderr).toContain('Please specify a project')
  })

  it('says so when not logged in or when the portal cannot be reached', async () => {
    const whoami = await cli('whoami')
    expect(whoami.code).toBe(3)
    expect(whoami.stderr).toContain('Not logged in')

    const unreachable = await cli('login', '--email', OWNER.email, '--password', OWNER.password, '--url', 'http://127.0.0.1:9')
    expect(unreachable.code).toBe(6)
    expect(unreachable.stderr).toContain('Cannot reach the portal at http://127.0.0.1:9')
  })

  it('logs in, keeps the token private, and works as that user until logout', async () => {
    const wrong = await cli('login', '--email', OWNER.email, '--password', 'Not-the-password-1')
    expect(wrong.code).toBe(3)
    expect(wrong.stderr).toContain('Incorrect email address or password')
    expect(fs.existsSync(configFile())).toBe(false)

    const login = await cli('login', '--email', OWNER.email, '--password', OWNER.password, '--json')
    expect(login.code).toBe(0)
    expect(JSON.parse(login.stdout)).toMatchObject({ url: portal.url, email: OWNER.email })
    expect(fs.statSync(configFile()).mode & 0o777).toBe(0o600)
    const stored = JSON.parse(fs.readFileSync(configFile(), 'utf8'))
    expect(stored).toMatchObject({ url: portal.url, email: OWNER.email })
    expect(login.stdout).not.toContain(stored.token)

    const whoami = await cli('whoami')
    expect(whoami).toMatchObject({ code: 0 })
    expect(whoami.stdout).toContain(`Olivia Owner <${OWNER.email}>`)

    // The token is listed in the user's settings (token/list) until logout revokes it.
    const db = await portalDb(portal)
    try {
      expect(await db.apiToken.count({ where: { user: { email: OWNER.email }, revokedAt: null } })).toBe(1)
      const logout = await cli('logout')
      expect(logout.code).toBe(0)
      expect(await db.apiToken.count({ where: { user: { email: OWNER.email }, revokedAt: null } })).toBe(0)
    } finally {
      await db.$disconnect()
    }
    expect(fs.existsSync(configFile())).toBe(false)
    expect((await cli('whoami')).code).toBe(3)
  })

  it('enrolls an agent by code and lists it as JSON; explains bad codes and foreign organizations', async () => {
    expect((await cli('login', '--email', OWNER.email, '--password', OWNER.password)).code).toBe(0)

    const unknownCode = await cli('enroll', 'ZZZ-ZZ-ZZZ', '--org', DEMO_ORG, '--project', 'Main Stage')
    expect(unknownCode.code).toBe(5)
    expect(unknownCode.stderr).toContain('No current enrollment code matches')

    const { agentId, code } = await agentWithCode('CLI Test Processor')
    const unknownProject = await cli('enroll', code, '--org', 'Demo Live Events', '--project', 'Backstage')
    expect(unknownProject.code).toBe(5)
    expect(unknownProject.stderr).toContain('No such project Backstage in org Demo Live Events')

    const enrolled = await cli('enroll', code.toLowerCase(), '--org', 'Demo Live Events', '--new-project', 'CLI Stage', '--json')
    expect(enrolled.code).toBe(0)
    expect(JSON.parse(enrolled.stdout)).toMatchObject({ agentId, agentName: 'CLI Test Processor', organizationId: DEMO_ORG, systemsAssigned: 1 })

    const reused = await cli('enroll', code, '--org', DEMO_ORG, '--project', 'CLI Stage')
    expect(reused.code).toBe(5)

    const list = await cli('agents', 'list', '--org', DEMO_ORG, '--json')
    expect(list.code).toBe(0)
    const listed = JSON.parse(list.stdout) as { agents: { id: string; name: string; systems: { projectName: string | null }[] }[] }
    expect(listed.agents.find((a) => a.id === agentId)).toMatchObject({ name: 'CLI Test Processor', systems: [{ projectName: 'CLI Stage' }] })

    const table = await cli('agents', 'list', '--org', DEMO_ORG, '--filter', 'CLI Test')
    expect(table.stdout).toMatch(/CLI Test Processor\s+VX1000/)

    const foreign = await cli('agents', 'list', '--org', 'not-my-organization0')
    expect(foreign.code).toBe(4)
    expect(foreign.stderr).toContain('insufficient access rights')
  })
})
