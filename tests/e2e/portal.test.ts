/**
 * The remote portal end to end: a simulated agent enrolled into a demo project opens its tunnel to
 * the real portal's relay; the demo owner opens the portal page, sees 'Connected to: ...' and the
 * agent's own status page inside the frame (served through the relay), a site admin sees the
 * session on Admin > Sessions, and Close returns to the agents list.
 */
import { type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_ORG_ID, DEMO_USERS } from '../../prisma/seed-data'
import { type Fleet } from '../../simulator/fleet'
import { browser, newPage, portal, portalDb, signInAs, startEnrolledAgent, withPortalAndBrowser } from './harness'

const STAGE_LEFT = 'demo-prj-stage-left0'
const SHOTS = process.env.PIXELFLEET_SCREENSHOTS

withPortalAndBrowser()
let fleet: Fleet | undefined

afterAll(async () => {
  await fleet?.stop()
})

const shot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png` })
}

beforeAll(async () => {
  const { context, page } = await newPage(browser, portal.url)
  await signInAs(context, portal, DEMO_USERS.owner.email)
  fleet = await startEnrolledAgent(page, portal.mqttPort, { projectId: STAGE_LEFT, seed: 'portal-e2e', interval: '5s', scenario: 'tempHigh' })
  await context.close()
})

describe('remote portal', () => {
  it('shows the agent web interface through the relay and closes back to the agents list', async () => {
    const [agent] = fleet!.agents
    // enrolled agents ask for their tunnel config and open the tunnel in the background
    const db = await portalDb(portal)
    try {
      await expect.poll(async () => (await db.agent.findUniqueOrThrow({ where: { id: agent.agentId! } })).tunnelStatus, { timeout: 45_000 }).toBe('true')
    } finally {
      await db.$disconnect()
    }

    const { context, page } = await newPage(browser, portal.url)
    await signInAs(context, portal, DEMO_USERS.owner.email)
    const agentsList = `/organization/${DEMO_ORG_ID}/agents`
    await page.goto(`/portal/${DEMO_ORG_ID}/${agent.agentId}?close=${encodeURIComponent(agentsList)}`)
    await page.getByText(`Connected to: ${agent.site.name}`).waitFor()

    // the frame is the session's relay origin, showing the agent's own status page
    const frame = page.frameLocator(`iframe[title="Web interface of ${agent.site.name}"]`)
    await frame.getByRole('heading', { name: `${agent.site.name} — agent status` }).waitFor({ timeout: 45_000 })
    await frame.getByRole('heading', { name: agent.site.systemsSnapshot()[0].name }).first().waitFor()
    // the agent page's live WebSocket reaches the agent through the relay: updates keep arriving
    const live = frame.locator('#live')
    await expect.poll(async () => Number(await live.getAttribute('data-updates')), { timeout: 30_000 }).toBeGreaterThanOrEqual(2)
    await expect.poll(() => live.textContent()).toMatch(/^Live status .+ · \d+ system\(s\)$/)
    const src = await page.locator('iframe').getAttribute('src')
    // the session's own origin ({label}.localhost on the relay's port), redeemed once by the frame
    expect(src).toMatch(new RegExp(`^http://[a-z2-7]{26}\\.localhost:${portal.relayPort}/session/[\\w-]+/[^/]+/${agent.agentId}/`))
    if (SHOTS) {
      await page.setViewportSize({ width: 1440, height: 900 })
      await shot(page, 'portal-1440')
      await page.setViewportSize({ width: 390, height: 844 })
      await page.waitForTimeout(300)
      await shot(page, 'portal-390')
      await page.setViewportSize({ width: 1400, height: 900 })
    }

    // a site admin sees the open session with the owner's e-mail
    const admin = await newPage(browser, portal.url)
    await signInAs(admin.context, portal, DEMO_USERS.admin.email)
    await admin.page.goto('/admin/sessions')
    const row = admin.page.getByRole('table', { name: 'Proxy sessions' }).getByRole('row').filter({ hasText: DEMO_USERS.owner.email })
    await row.waitFor()
    await expect(row.textContent()).resolves.toContain(agent.site.name)
    await expect(row.textContent()).resolves.toContain('Chrome Headless')
    await shot(admin.page, 'admin-sessions')
    await admin.context.close()

    await page.getByRole('button', { name: 'Close' }).click()
    await page.waitForURL((url) => url.pathname === agentsList)
    await page.getByRole('heading', { name: 'Agents' }).waitFor()
    await context.close()
  })

  it('refuses the portal to a member without connect permission', async () => {
    const [agent] = fleet!.agents
    const { context, page } = await newPage(browser, portal.url)
    await signInAs(context, portal, DEMO_USERS.viewer.email)
    await page.goto(`/portal/${DEMO_ORG_ID}/${agent.agentId}`)
    await page.getByText('Access denied').first().waitFor()
    await expect(page.locator('iframe').count()).resolves.toBe(0)
    await context.close()
  })
})
