import { type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_ORG_ID, DEMO_USERS } from '../../prisma/seed-data'
import { startFleet, type Fleet } from '../../simulator/fleet'
import { type ClientConfigResult } from '../../protocol'
import { launchBrowser, newPage, signInAs, startPortal, type RunningPortal } from './harness'

let portal: RunningPortal
let browser: Browser
let fleet: Fleet | undefined

beforeAll(async () => {
  portal = await startPortal({ FLEET_READ_CACHE_MS: '5000' })
  browser = await launchBrowser()
})

afterAll(async () => {
  await fleet?.stop()
  await browser?.close()
  await portal?.stop()
})

type ListedAgent = { id: string; lastSeen: string | null; systems: { id: string; projectId: string | null; projectName: string | null }[] }

// generous limits: the waits end as soon as the condition holds; at load 30-40 the browser steps
// before the push alone took over 30 s
async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

describe('agent enrollment end to end', () => {
  it('enrolls a simulated agent through /enroll and shows its reported systems to the organization', async () => {
    // A simulated agent registers over MQTT, reports, and asks for an enrollment code.
    fleet = await startFleet({
      agents: 1,
      url: `mqtt://127.0.0.1:${portal.mqttPort}`,
      stateDir: null,
      interval: '500ms',
      seed: 'enrollment-e2e',
      progress: 'off',
      log: () => undefined,
    })
    const [application] = fleet.applications
    const [agent] = fleet.agents
    expect(application.applicationCode).toMatch(/^[A-Z0-9]{3}-[A-Z0-9]{2}-[A-Z0-9]{3}$/)
    const pushedEnrolled = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 180_000)
      agent.on('config', (config: ClientConfigResult) => {
        if (config.enrolled && config.organizationId === DEMO_ORG_ID) {
          clearTimeout(timer)
          resolve(true)
        }
      })
    })

    const { context, page } = await newPage(browser, portal.url)
    await signInAs(context, portal, DEMO_USERS.owner.email)
    const listAgents = async () => {
      const response = await page.request.post('/client/v1/agent/list', { data: { organizationId: DEMO_ORG_ID } })
      expect(response.status()).toBe(200)
      return ((await response.json()) as { agents: ListedAgent[] }).agents
    }
    // Before enrollment the organization does not see the agent.
    expect((await listAgents()).some((a) => a.id === application.agentId)).toBe(false)

    // A wrong code: the warning and the code form.
    await page.goto('/enroll/WRONG-CODE')
    await page.getByText('Enrollment error (invalid code?)').waitFor()
    await expect(page.getByPlaceholder('XXX-XX-XXX').isVisible()).resolves.toBe(true)

    // The code form validates, then normalises the typed code (dashes removed, upper case).
    await page.goto(`/enroll?organizationId=${DEMO_ORG_ID}`)
    await page.waitForLoadState('networkidle')
    await page.getByRole('button', { name: 'Look up' }).click()
    await page.getByText('Please input enrollment code').waitFor()
    await page.getByPlaceholder('XXX-XX-XXX').fill(` ${application.applicationCode.toLowerCase()} `)
    await page.getByRole('button', { name: 'Look up' }).click()
    await page.waitForURL((url) => url.pathname === `/enroll/${application.applicationCode.replace(/-/g, '')}`)

    // The lookup shows the device; the organization from the query is preselected.
    await page.getByRole('heading', { name: 'Enroll Agent' }).waitFor()
    await expect(page.getByTestId('enroll-agent-name').textContent()).resolves.toBe(application.name)
    await expect(page.getByTestId('enroll-agent-product').textContent()).resolves.toBe(agent.site.product)
    await page.waitForLoadState('networkidle')
    const organization = page.getByRole('combobox', { name: 'Organization' })
    await expect(organization.inputValue()).resolves.toBe('Demo Live Events')
    await organization.fill('Demo Live')
    await page.getByRole('option', { name: 'Demo Live Events' }).click()

    // Enroll without a project is refused with the spec's text; then pick a nested project.
    await page.getByRole('button', { name: 'Enroll' }).click()
    await page.getByText('Please specify a project').waitFor()
    await page.getByLabel('Project', { exact: true }).selectOption({ label: 'Main Stage / Stage Left Wall' })
    await page.getByRole('button', { name: 'Enroll' }).click()
    await page.waitForURL((url) => url.pathname.startsWith(`/organization/${DEMO_ORG_ID}`))

    // The portal pushed the new configuration to the agent over MQTT.
    await expect(pushedEnrolled).resolves.toBe(true)

    // The agent keeps reporting; its systems are now the organization's, in the chosen project.
    const enrolledAt = Date.now()
    const listed = await waitFor('a report after enrollment', async () => {
      const found = (await listAgents()).find((a) => a.id === application.agentId)
      return found && found.lastSeen && new Date(found.lastSeen).getTime() >= enrolledAt - 1000 ? found : undefined
    })
    expect(listed.systems.length).toBeGreaterThan(0)
    expect(listed.systems.every((s) => s.projectId === 'demo-prj-stage-left0' && s.projectName === 'Stage Left Wall')).toBe(true)

    // The same code cannot be used twice.
    await page.goto(`/enroll/${application.applicationCode}`)
    await page.getByText('Enrollment error (invalid code?)').waitFor()
    await context.close()
  })
})
