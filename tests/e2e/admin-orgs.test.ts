import { type Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { DEMO_ORG_ID, DEMO_PROJECTS, DEMO_USERS } from '../../prisma/seed-data'
import { browser, hydrated, newPage, portal, portalDb, signInAs, startEnrolledAgent, withPortalAndBrowser } from './harness'

withPortalAndBrowser()

/** Clicks work once React has hydrated the page. */

/** With SHOTS_DIR set, saves the page at 1440 and 390 px wide (phone: sidebar collapsed, as a phone user would). */
async function shots(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR
  if (!dir) return
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.waitForTimeout(300)
  await page.screenshot({ path: `${dir}/${name}-1440.png`, fullPage: true })
  await page.setViewportSize({ width: 390, height: 844 })
  await page.getByRole('button', { name: 'Collapse sidebar' }).click()
  await page.waitForTimeout(300)
  await page.screenshot({ path: `${dir}/${name}-390.png`, fullPage: true })
  await page.getByRole('button', { name: 'Expand sidebar' }).click()
  await page.setViewportSize({ width: 1400, height: 900 })
}

describe('site admin organizations, billing and invoices', () => {
  it('a billing request reaches staff; staff set billing, manage invoices, browse usage, metrics, clients and events; the customer sees it all', async () => {
    const db = await portalDb(portal)
    try {
      await db.organization.update({ where: { id: DEMO_ORG_ID }, data: { billingStatus: 'disabled' } })
    } finally {
      await db.$disconnect()
    }
    const customer = await newPage(browser, portal.url)
    await signInAs(customer.context, portal, DEMO_USERS.owner.email)
    const fleet = await startEnrolledAgent(customer.page, portal.mqttPort, { projectId: DEMO_PROJECTS[1].id, seed: 'admin-orgs', interval: '2s', scenario: 'tempHigh' })
    try {
      // The customer asks for a billing agreement.
      await customer.page.goto(`/organization/${DEMO_ORG_ID}/settings/billing`)
      await hydrated(customer.page)
      // A click before React hydrated does nothing: retry until the request is answered.
      for (let attempt = 0; ; attempt++) {
        await customer.page.getByRole('button', { name: 'Request Billing Agreement' }).click()
        const answered = await customer.page
          .getByText('Billing Status Updated')
          .waitFor({ timeout: 10_000 })
          .then(() => true)
          .catch(() => false)
        if (answered || attempt === 4) break
      }
      await expect.poll(() => customer.page.getByTestId('billing-status').textContent()).toBe('Requested')

      // Staff: the organizations list shows it as requested.
      const { context, page } = await newPage(browser, portal.url)
      await signInAs(context, portal, DEMO_USERS.admin.email)
      await page.goto('/admin/orgs')
      await hydrated(page)
      const row = page.getByTestId('admin-orgs-table').locator('tr', { hasText: 'Demo Live Events' })
      await row.getByText('requested').waitFor()
      await row.getByText('Olivia Owner').waitFor()
      await row.getByRole('button', { name: 'Show id of Demo Live Events' }).click()
      await page.getByText(`id: ${DEMO_ORG_ID}`).waitFor()
      await shots(page, 'admin-orgs-list')

      // Detail: a requested organization opens on Manage with the request highlighted.
      await row.getByRole('link', { name: 'Demo Live Events' }).click()
      await page.waitForURL(`**/admin/orgs?orgId=${DEMO_ORG_ID}`)
      await page.getByText('Billing requested').waitFor()
      await page.getByTestId('billing-status-select').selectOption('enabled')
      await page.getByTestId('billing-period-select').selectOption('yearly')
      await page.getByRole('button', { name: 'Save' }).click()
      await page.getByText('Org Billing Status Updated').waitFor()
      await page.getByText(/Invoices here are manual entries shown to the organization admins\. Real invoicing happens in an external accounting system\./).waitFor()

      // Invoices: required fields, auto reference, starts open; edit with total/reference locked; delete after confirming.
      await page.getByRole('button', { name: 'New Invoice' }).click()
      const dialog = page.getByRole('dialog', { name: 'New Invoice' })
      await expect(dialog.getByLabel('Status').inputValue()).resolves.toBe('open')
      await dialog.getByRole('button', { name: 'Save' }).click()
      await dialog.getByText('Invoice Total').waitFor()
      await dialog.getByLabel('Total').fill('1250.5')
      await dialog.getByLabel('Status').selectOption('')
      await dialog.getByRole('button', { name: 'Save' }).click()
      await dialog.getByText('Status required').waitFor()
      await dialog.getByLabel('Status').selectOption('open')
      await dialog.getByLabel('Due (UTC)').fill('2026-12-31')
      await dialog.getByRole('button', { name: 'Save' }).click()
      await page.getByText('Invoice Created').waitFor()
      const today = new Date().toISOString().slice(0, 10)
      const invoices = page.getByTestId('invoices-table')
      const first = invoices.locator('tr', { hasText: 'USD 1,250.50' })
      await first.getByText('open').waitFor()
      await first.getByText('2026-12-31').waitFor()
      await expect(first.locator('td').first().textContent()).resolves.toMatch(new RegExp(`^${today}`))

      await page.getByRole('button', { name: 'New Invoice' }).click()
      await page.getByRole('dialog', { name: 'New Invoice' }).getByLabel('Reference').fill('INV-DELETE-ME')
      await page.getByRole('dialog', { name: 'New Invoice' }).getByLabel('Total').fill('10')
      await page.getByRole('dialog', { name: 'New Invoice' }).getByRole('button', { name: 'Save' }).click()
      await invoices.getByText('INV-DELETE-ME').waitFor()

      await first.getByRole('button', { name: /^Edit invoice/ }).click()
      const edit = page.getByRole('dialog', { name: 'Edit Invoice' })
      await expect(edit.getByLabel('Total').isDisabled()).resolves.toBe(true)
      await expect(edit.getByLabel('Reference').isDisabled()).resolves.toBe(true)
      await edit.getByLabel('Status').selectOption('settled')
      await edit.getByLabel('Sent on (UTC)').fill('2026-11-20')
      await edit.getByRole('button', { name: 'Save' }).click()
      await page.getByText('Invoice Updated').waitFor()
      await first.getByText('settled').waitFor()
      await first.getByText('2026-11-20').waitFor()
      await shots(page, 'admin-org-manage')

      await page.getByRole('button', { name: 'Delete invoice INV-DELETE-ME' }).click()
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
      await page.getByText('Invoice Deleted').waitFor()
      await invoices.getByText('INV-DELETE-ME').waitFor({ state: 'detached' })

      // Usage (Metric Events): Fetch all fills the table from the agent's calls.
      await page.getByRole('tab', { name: 'Metric Events' }).click()
      await page.getByText('Periods are calendar months in UTC', { exact: false }).waitFor()
      await page.getByRole('button', { name: 'Fetch all' }).click()
      const usage = page.getByTestId('usage-table')
      await expect.poll(async () => usage.getByRole('button', { name: 'Refresh' }).count(), { timeout: 45_000 }).toBe(3)
      const current = usage.locator('tbody tr').first()
      await expect.poll(async () => Number(await current.locator('td').nth(2).textContent())).toBeGreaterThan(0)
      await expect(current.locator('td').nth(1).textContent()).resolves.toBe('1')
      await page.getByLabel('Show extra info').check()
      await usage.getByText('updateClientState').waitFor()
      await page.getByLabel('Period', { exact: true }).selectOption('hourly')
      await expect(page.getByLabel('Number of periods').inputValue()).resolves.toBe('12')
      await expect.poll(() => usage.locator('tbody tr').count()).toBe(12)
      await page.getByRole('button', { name: 'Fetch all' }).click()
      await page.getByTestId('usage-chart').waitFor()
      await shots(page, 'admin-org-usage')

      // Projects (project metrics), with the raw JSON toggle.
      await page.getByRole('tab', { name: 'Projects' }).click()
      await page.getByTestId('metrics-projects').getByText('Stage Left Wall').waitFor()
      await shots(page, 'admin-org-metrics')
      await page.getByRole('button', { name: 'Raw JSON' }).click()
      await expect(page.getByTestId('metrics-json').textContent()).resolves.toContain('"deviceIssues"')

      // Clients: the agent, expanded with raw fields and its systems.
      await page.getByRole('tab', { name: 'Clients' }).click()
      const clients = page.getByTestId('clients-table')
      await clients.locator('tbody tr').first().getByRole('button', { name: /^Expand/ }).click()
      await clients.getByText('nextNotice').waitFor()
      await clients.getByTestId('client-systems').waitFor()
      await clients.getByRole('button', { name: 'Reload' }).click()
      await clients.getByTestId('client-systems').getByText('Stage Left Wall').first().waitFor()
      await shots(page, 'admin-org-clients')

      // Events Log.
      await page.getByRole('tab', { name: 'Events Log' }).click()
      await page.getByText('Agent Events Log').waitFor()
      await page.getByText('The raw events recorded for this organization. Used in billing and dashboard metrics.').waitFor()
      await page.getByTestId('events-table').getByText('updateClientState').first().waitFor()
      await shots(page, 'admin-org-events')

      // The customer sees the status staff set and the invoice, in Settings > Billing and on /billing.
      await customer.page.reload()
      await expect.poll(() => customer.page.getByTestId('billing-status').textContent()).toBe('Enabled')
      await customer.page.getByText('Yearly').waitFor()
      await customer.page.getByTestId('org-invoices').getByText('USD 1,250.50').waitFor()
      await customer.page.getByTestId('org-invoices').getByText('settled').waitFor()
      await shots(customer.page, 'settings-billing')
      await hydrated(customer.page)
      await customer.page.getByRole('button', { name: 'My Account' }).click()
      await customer.page.getByRole('menuitem', { name: 'Billing' }).click()
      await customer.page.waitForURL('**/billing')
      const card = customer.page.getByTestId(`billing-org-${DEMO_ORG_ID}`)
      await card.getByText('enabled').waitFor()
      await card.getByText('USD 1,250.50').waitFor()
      await expect(customer.page.getByText('Coming soon').count()).resolves.toBe(0)
      await shots(customer.page, 'billing')

      // A viewer (no billing or invoice permission) gets the honest empty state; the admin pages stay closed to them.
      const viewer = await newPage(browser, portal.url)
      await signInAs(viewer.context, portal, DEMO_USERS.viewer.email)
      await viewer.page.goto('/billing')
      await viewer.page.getByText('No billing information for you').waitFor()
      await shots(viewer.page, 'billing-empty')
      await viewer.page.goto(`/admin/orgs?orgId=${DEMO_ORG_ID}`)
      await viewer.page.waitForURL((url) => !url.pathname.startsWith('/admin'))
      const refused = await viewer.page.request.post('/client/v1/admin/invoices', { data: { organizationId: DEMO_ORG_ID } })
      expect(refused.status()).toBe(403)
    } finally {
      await fleet.stop()
    }
  }, 240_000)
})
