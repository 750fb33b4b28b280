/**
 * One presence model in the browser (docs/decisions/037-one-presence-model.md): an agent whose last
 * seen moved back past its project's offline delay (5 minutes) but within the former 30-minute
 * window shows Disconnected in the agents list, is found by the Disconnected filter and not by the
 * Connected one, and its project shows the offline alarm the portal's own sweeper raised.
 */
import { describe, expect, it } from 'vitest'
import { DEMO_ORG_ID, DEMO_USERS } from '../../prisma/seed-data'
import { encodeState } from '../../app/domain/fleet/agents-table-state'
import { OFFLINE_ISSUE } from '../../app/domain/alarms/state'
import { browser, hydrated, portal, portalDb, signInAs, withPortalAndBrowser } from './harness'

withPortalAndBrowser()

const PROJECT = 'demo-prj-main-stage0'
const NAME = 'Presence Probe'
const agentsUrl = (connected: string[]) => `/organization/${DEMO_ORG_ID}/agents?filters=${encodeURIComponent(encodeState([{ id: 'name', value: NAME }, ...(connected.length ? [{ id: 'connected', value: connected }] : [])]))}`

describe('presence', () => {
  it('tag, filter and offline alarm agree once the agent is silent past its delay', async () => {
    const db = await portalDb(portal)
    let agentId: string
    try {
      await db.project.update({ where: { id: PROJECT }, data: { offlineAlarmMinutes: 5 } })
      // silent for 8 minutes: past the project's 5, within the former 30-minute Connected window
      const agent = await db.agent.create({ data: { clientName: NAME, product: 'VX1000', serial: 'SN-PRESENCE', secretHash: 'x', organizationId: DEMO_ORG_ID, enrolledAt: new Date(), lastSeen: new Date(Date.now() - 8 * 60_000) } })
      agentId = agent.id
      await db.system.create({ data: { agentId: agent.id, key: 'sys-presence', name: 'Presence Wall', projectId: PROJECT } })
    } finally {
      await db.$disconnect()
    }

    const context = await browser.newContext({ baseURL: portal.url, viewport: { width: 1400, height: 900 } })
    await signInAs(context, portal, DEMO_USERS.owner.email)
    const page = await context.newPage()
    page.setDefaultTimeout(30_000)

    // the tag
    await page.goto(agentsUrl([]))
    await hydrated(page)
    const row = page.getByRole('row').filter({ hasText: NAME })
    await row.getByLabel('Disconnected').waitFor()
    expect(await row.getByLabel('Connected', { exact: true }).count()).toBe(0)

    // the filters
    await page.goto(agentsUrl(['Disconnected']))
    await page.getByRole('row').filter({ hasText: NAME }).waitFor()
    await page.goto(agentsUrl(['Connected']))
    await page.getByText('No results.').waitFor()
    expect(await page.getByRole('row').filter({ hasText: NAME }).count()).toBe(0)

    // the agent page
    await page.goto(`/organization/${DEMO_ORG_ID}/agents/${agentId}`)
    await page.getByText('Disconnected', { exact: true }).first().waitFor()

    // the alarm: the portal's sweeper (every 15 s) raises it; wait for its row in the database (a
    // cheap query) instead of reloading the issues page every few seconds, then the page must show it
    const db2 = await portalDb(portal)
    try {
      await expect
        .poll(() => db2.issue.count({ where: { key: OFFLINE_ISSUE.key, isActive: true, system: { agentId } } }), { timeout: 120_000, interval: 500 })
        .toBeGreaterThan(0)
    } finally {
      await db2.$disconnect()
    }
    await page.goto(`/organization/${DEMO_ORG_ID}/projects/${PROJECT}/issues`)
    await page.getByRole('table', { name: 'Issue Counts' }).getByText('Agent offline: not seen for 5 minutes').first().waitFor()
    await context.close()
  })
})
