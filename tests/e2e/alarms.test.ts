/**
 * Alarm lifecycle in the browser (one portal, one browser): acknowledge with a comment from the
 * project Issues tab, filter by state, the issue drawer's thread, then a maintenance window created
 * in project settings shows its banner and mutes the issue list.
 */
import { mkdirSync } from 'node:fs'
import { type Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { DEMO_ORG_ID, DEMO_USERS } from '../../prisma/seed-data'
import { browser, hydrated, portal, portalDb, signInAs, withPortalAndBrowser } from './harness'

withPortalAndBrowser()

const PROJECT = 'demo-prj-main-stage0'
const base = `/organization/${DEMO_ORG_ID}/projects/${PROJECT}`

/** ALARMS_SHOTS=dir takes a screenshot of each screen at 1440 and 390 px wide (for looking at them). */
async function shoot(page: Page, name: string) {
  const dir = process.env.ALARMS_SHOTS
  if (!dir) return
  mkdirSync(dir, { recursive: true })
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 })
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true })
  }
  await page.setViewportSize({ width: 1400, height: 900 })
}

async function fixtures() {
  const db = await portalDb(portal)
  try {
    const agent = await db.agent.create({ data: { clientName: 'Alarm Processor', product: 'VX1000', serial: 'SN-ALARM1', secretHash: 'x', organizationId: DEMO_ORG_ID, enrolledAt: new Date(), lastSeen: new Date() } })
    const system = await db.system.create({ data: { agentId: agent.id, key: 'sys-alarm', name: 'Alarm Wall', projectId: PROJECT } })
    const issue = (key: string, severity: number, message: string, isActive: boolean) =>
      db.issue.create({ data: { systemId: system.id, kind: 'alert', key, component: 'receiver', message, severity, latestAt: new Date(), latestCount: 1, isActive, activation: 1 } })
    await issue('psu.fail', 2, 'Power supply failed', true)
    await issue('recv.tempHigh', 4, 'Tile over temperature', true)
    await issue('recv.linkLost', 3, 'Receiver link lost', false)
    return agent.id
  } finally {
    await db.$disconnect()
  }
}

describe('alarm lifecycle and windows', () => {
  it('acknowledges with a comment, filters by state, and shows a maintenance window banner', async () => {
    const agentId = await fixtures()
    const context = await browser.newContext({ baseURL: portal.url, viewport: { width: 1400, height: 900 }, timezoneId: 'Europe/Berlin' })
    const owner = await signInAs(context, portal, DEMO_USERS.owner.email)
    const page = await context.newPage()
    page.setDefaultTimeout(15_000)

    await page.goto(`${base}/issues`)
    await hydrated(page)
    const issues = page.getByRole('table', { name: 'Issue Counts' })
    await issues.getByText('Power supply failed').waitFor()
    expect(await page.getByRole('tab', { name: 'Active', exact: true }).getAttribute('aria-selected')).toBe('true')
    expect(await issues.getByText('Receiver link lost').count()).toBe(0)
    await shoot(page, 'issues')

    // Acknowledge with a comment.
    await issues.getByRole('row').filter({ hasText: 'Power supply failed' }).getByRole('button', { name: 'Acknowledge' }).click()
    const dialog = page.getByRole('dialog', { name: 'Acknowledge Issue' })
    await dialog.getByLabel('Comment (optional)').fill('PSU swap after the show')
    await shoot(page, 'acknowledge-dialog')
    await dialog.getByRole('button', { name: 'Acknowledge' }).click()
    await dialog.waitFor({ state: 'hidden' })
    // still an active issue, now marked acknowledged; gone from the unacknowledged view
    await issues.getByRole('row').filter({ hasText: 'Power supply failed' }).getByText('Acknowledged', { exact: true }).waitFor()
    await page.getByRole('tab', { name: 'Active unacknowledged' }).click()
    await page.waitForURL((url) => url.searchParams.get('issues') === 'active-unack')
    await expect.poll(() => issues.getByText('Power supply failed').count()).toBe(0)
    await issues.getByText('Tile over temperature').waitFor()

    // Filter by state: acknowledged, cleared, all.
    await page.getByRole('tab', { name: 'Active acknowledged' }).click()
    await page.waitForURL((url) => url.searchParams.get('issues') === 'active-ack')
    const acked = issues.getByRole('row').filter({ hasText: 'Power supply failed' })
    await acked.getByText('Acknowledged', { exact: true }).waitFor()
    await acked.getByText(`Acknowledged by ${owner.name}`).waitFor()
    expect(await issues.getByText('Tile over temperature').count()).toBe(0)
    await page.getByRole('tab', { name: 'Cleared' }).click()
    await issues.getByText('Receiver link lost').waitFor()
    expect(await issues.getByText('Cleared', { exact: true }).count()).toBe(1)
    await page.getByRole('tab', { name: 'All' }).click()
    await expect.poll(() => issues.getByRole('row').count()).toBe(4)

    // The drawer: the acknowledgement with its comment, who and when.
    await issues.getByRole('button', { name: 'Power supply failed' }).click()
    const drawer = page.getByRole('dialog', { name: 'Power supply failed' })
    await drawer.getByText('PSU swap after the show').waitFor()
    await drawer.getByText(`${owner.name} acknowledged`, { exact: false }).waitFor()
    await shoot(page, 'issue-drawer')
    await drawer.getByRole('button', { name: 'Close' }).click()

    // A maintenance window from now on: banner on the project pages, issues shown as muted.
    await page.goto(`${base}/settings`)
    await hydrated(page)
    await page.getByRole('button', { name: 'Add Window' }).click()
    const form = page.getByRole('dialog', { name: 'Add Window' })
    const local = (offsetMs: number) =>
      page.evaluate((ms) => {
        const d = new Date(Date.now() + ms)
        const p = (n: number) => String(n).padStart(2, '0')
        return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`
      }, offsetMs)
    await form.getByLabel('Name (optional)').fill('Rigging')
    await form.getByLabel('Start').fill(await local(-3600_000))
    await form.getByLabel('End').fill(await local(2 * 3600_000))
    await shoot(page, 'window-form')
    await form.getByRole('button', { name: 'Add Window' }).click()
    await form.waitFor({ state: 'hidden' })
    await page.getByRole('list', { name: 'Windows' }).getByText('Rigging').waitFor()
    const banner = page.getByRole('status').filter({ hasText: 'Maintenance window until' })
    await banner.waitFor()
    expect(await banner.textContent()).toContain('notifications are muted')
    await shoot(page, 'settings')

    // A show window that starts while the page is open: its banner appears without a reload.
    const db = await portalDb(portal)
    try {
      const startsAt = new Date(Date.now() + 10_000)
      await db.projectWindow.create({
        data: { organizationId: DEMO_ORG_ID, projectId: PROJECT, kind: 'show', name: 'Doors', recurrence: 'once', startsAt, endsAt: new Date(startsAt.getTime() + 3600_000), severities: '[2]' },
      })
    } finally {
      await db.$disconnect()
    }
    await page.reload()
    await hydrated(page)
    const showBanner = page.getByRole('status').filter({ hasText: 'Show window until' })
    expect(await showBanner.count()).toBe(0)
    await showBanner.waitFor({ timeout: 30_000 })

    await page.goto(`${base}/issues?issues=active-unack`)
    await page.getByRole('status').filter({ hasText: 'Maintenance window until' }).waitFor()
    await issues.getByRole('row').filter({ hasText: 'Tile over temperature' }).getByText('Muted').waitFor()
    await shoot(page, 'issues-muted')

    // The agent detail page lists the same issues with the same filter.
    await page.goto(`/organization/${DEMO_ORG_ID}/agents/${agentId}?issues=active-ack`)
    await page.getByRole('table', { name: 'Issues' }).getByText('Power supply failed').waitFor()
    expect(await page.getByRole('table', { name: 'Issues' }).getByText('Tile over temperature').count()).toBe(0)
    await shoot(page, 'agent-detail')
    await context.close()
  })
})
