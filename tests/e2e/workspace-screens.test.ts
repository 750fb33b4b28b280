import { type Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { DEMO_ORG_ID, DEMO_USERS } from '../../prisma/seed-data'
import { browser, hydrated, newPage, portal, portalDb, signInAs, withPortalAndBrowser } from './harness'

withPortalAndBrowser()

const edit = `/organization/${DEMO_ORG_ID}/edit`
const tabNames = (page: Page) => page.getByRole('tablist').first().getByRole('tab').allTextContents()

describe('organization edit screen', () => {
  it('shows every tab to the owner, mirrors the tab in the URL, and gives a viewer only Settings (other tab URLs refused)', async () => {
    const owner = await newPage(browser, portal.url)
    await signInAs(owner.context, portal, DEMO_USERS.owner.email)
    const page = owner.page
    await page.goto(edit)
    await page.waitForURL((url) => url.pathname === `${edit}/members`)
    expect(await tabNames(page)).toEqual(['Members', 'Projects', 'Agents', 'Roles', 'Audit Log', 'Settings'])
    await page.getByRole('table', { name: 'Members' }).getByText(DEMO_USERS.owner.name).first().waitFor()
    // breadcrumb: the last item is 'Settings'
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' })
    expect((await crumbs.textContent())?.trim().endsWith('Settings')).toBe(true)

    await hydrated(page)
    for (const [tab, path, probe] of [
      ['Roles', 'roles', 'Member Roles'],
      ['Audit Log', 'audit', 'Activity'],
      ['Projects', 'projects', 'Main Stage'],
      ['Agents', 'agents', 'Filter agents...'],
      ['Settings', 'settings', 'Organization ID'],
    ] as const) {
      await page.getByRole('tablist').first().getByRole('tab', { name: tab }).click()
      await page.waitForURL((url) => url.pathname === `${edit}/${path}`)
      await page.getByText(probe, { exact: true }).or(page.getByPlaceholder(probe)).first().waitFor()
      // the URL commits a moment before React re-renders the tab strip
      await expect.poll(() => page.getByRole('tablist').first().locator('[aria-current="page"]').textContent()).toBe(tab)
    }
    // a tab URL opened directly shows that tab
    await page.goto(`${edit}/roles`)
    await page.getByText('Member Roles', { exact: true }).first().waitFor()
    expect((await page.goto(`${edit}/nonsense`))?.status()).toBe(404)
    await page.getByRole('heading', { name: 'Not found' }).waitFor()
    await owner.context.close()

    const viewer = await newPage(browser, portal.url)
    await signInAs(viewer.context, portal, DEMO_USERS.viewer.email)
    await viewer.page.goto(edit)
    await viewer.page.waitForURL((url) => url.pathname === `${edit}/settings`)
    expect(await tabNames(viewer.page)).toEqual(['Settings'])
    await viewer.page.getByText('Organization ID').waitFor()
    for (const tab of ['members', 'projects', 'agents', 'roles', 'audit']) {
      expect((await viewer.page.goto(`${edit}/${tab}`))?.status(), tab).toBe(403)
      await viewer.page.getByRole('heading', { name: 'Access denied' }).waitFor()
    }
    await viewer.context.close()
  })
})

describe('project dialog', () => {
  it("opens from the projects list's Members and Settings actions, saves into the list and returns focus", async () => {
    const { context, page } = await newPage(browser, portal.url)
    await signInAs(context, portal, DEMO_USERS.owner.email)
    const list = `/organization/${DEMO_ORG_ID}/projects`
    await page.goto(list)
    await hydrated(page)

    await page.getByRole('button', { name: 'Members of Volume A' }).click()
    const dialog = page.getByRole('dialog', { name: 'Volume A' })
    await dialog.waitFor()
    expect(await dialog.getByRole('tab', { name: 'Members', selected: true }).isVisible()).toBe(true)
    await dialog.getByTestId('project-member').filter({ hasText: DEMO_USERS.owner.name }).waitFor()
    expect(new URL(page.url()).pathname).toBe(list)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Members of Volume A')

    await page.getByRole('button', { name: 'Settings of Volume A' }).click()
    await dialog.getByRole('tab', { name: 'Settings', selected: true }).waitFor()
    await dialog.getByRole('button', { name: 'Edit Description' }).click()
    await dialog.getByRole('textbox').fill('Curved volume, east hall')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Project updated').waitFor()
    // the list behind the dialog shows the change
    await page.getByTestId('project-row').filter({ hasText: 'Curved volume, east hall' }).waitFor({ state: 'attached' })
    await dialog.getByRole('tab', { name: 'Members' }).click()
    await dialog.getByTestId('project-member').first().waitFor()
    await dialog.getByRole('button', { name: 'Close' }).click()
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Settings of Volume A')
    expect(new URL(page.url()).pathname).toBe(list)
    await context.close()
  })
})

describe('agent location picker', () => {
  /** A fresh agent of the demo organization, and the owner signed in on a new page. */
  async function ownerOnNewAgent(clientName: string, serial: string) {
    const db = await portalDb(portal)
    const agent = await db.agent.create({ data: { clientName, secretHash: 'x', organizationId: DEMO_ORG_ID, product: 'Helios', version: '1.0', serial, lastSeen: new Date() } })
    const { context, page } = await newPage(browser, portal.url)
    await signInAs(context, portal, DEMO_USERS.owner.email)
    return { db, agent, context, page }
  }

  it('says so when the map code cannot be loaded, and still takes typed coordinates', async () => {
    const { db, agent, context, page } = await ownerOnNewAgent('Mapless Agent', 'SN-NOMAP')
    // the map's chunks fail, as after a deploy removed them or on a dropped connection
    await page.route(/leaflet|land-50m/i, (route) => route.abort())
    await page.goto(`/organization/${DEMO_ORG_ID}/agents/${agent.id}`)
    await page.getByText('The map could not be loaded').waitFor()
    // the hint no longer invites clicks on a map that is not there
    await page.getByText(/· Type coordinates to pick a manual location\./).waitFor()
    expect(await page.getByText('Click the map').count()).toBe(0)
    await page.getByLabel('Latitude').fill('48.8566')
    await page.getByLabel('Longitude').fill('2.3522')
    await page.getByRole('button', { name: 'Set Point' }).click()
    await page.getByRole('button', { name: 'Use Manual' }).click()
    await page.getByText('Location updated').waitFor()
    await expect.poll(async () => (await db.agent.findUniqueOrThrow({ where: { id: agent.id } })).locationManualLat).toBe(48.8566)
    await context.close()
  })

  it('draws an offline slippy map with no request leaving the portal, loads the map code only there, and takes typed coordinates', async () => {
    const { db, agent, context, page } = await ownerOnNewAgent('Map Agent', 'SN-MAP')
    const requests: string[] = []
    page.on('request', (r) => requests.push(r.url()))

    // another page of the workspace never loads the map library
    await page.goto(`/organization/${DEMO_ORG_ID}/agents`)
    await page.waitForLoadState('networkidle')
    expect(requests.filter((u) => /leaflet|land-50m/i.test(u))).toEqual([])

    await page.goto(`/organization/${DEMO_ORG_ID}/agents/${agent.id}`)
    const map = page.getByTestId('location-map')
    await page.locator('[data-testid="location-map"][data-ready="true"]').waitFor()
    await expect.poll(() => map.locator('.leaflet-overlay-pane path').count()).toBeGreaterThan(0)
    expect(await map.locator('.leaflet-control-zoom-in').isVisible()).toBe(true)
    expect(requests.some((u) => /leaflet/i.test(u))).toBe(true)

    // after the 2 s guard a click picks the point under the pointer, near the fixed start
    await page.waitForTimeout(2100)
    await map.click()
    await page.getByText('New point picked').waitFor()
    const lat = Number(await page.getByLabel('Latitude').inputValue())
    const long = Number(await page.getByLabel('Longitude').inputValue())
    expect(Math.abs(lat - 52.3676)).toBeLessThan(0.9)
    expect(Math.abs(long - 4.9041)).toBeLessThan(1.5)

    // typed coordinates are checked, then saved with Use Manual
    await page.getByLabel('Latitude').fill('95')
    await page.getByLabel('Longitude').fill('abc')
    await page.getByRole('button', { name: 'Set Point' }).click()
    await page.getByText('Latitude must be between -90 and 90').waitFor()
    await page.getByText('Longitude must be a number').waitFor()
    await page.getByLabel('Latitude').fill('48.8566')
    await page.getByLabel('Longitude').fill('2.3522')
    await page.getByRole('button', { name: 'Set Point' }).click()
    await page.locator('[data-testid="location-map"][data-ready="true"]').waitFor()
    await page.getByRole('button', { name: 'Use Manual' }).click()
    await page.getByText('Location updated').waitFor()
    await expect.poll(async () => (await db.agent.findUniqueOrThrow({ where: { id: agent.id } })).locationManualLat).toBe(48.8566)
    expect((await db.agent.findUniqueOrThrow({ where: { id: agent.id } })).locationManualLong).toBe(2.3522)

    // every request of the page stayed on the portal's origin: no tiles, fonts or scripts from elsewhere
    const origin = new URL(portal.url).origin
    expect(requests.filter((u) => !u.startsWith('data:') && !u.startsWith('blob:') && new URL(u).origin !== origin)).toEqual([])

    // the server checks the ranges too
    const refused = await page.request.post('/resources/agent-actions', {
      headers: { Origin: origin },
      form: { intent: 'location', organizationId: DEMO_ORG_ID, agentId: agent.id, useLocationMode: 'manual', lati: '95', long: '2' },
    })
    const body = await refused.text()
    expect(body).toContain('Latitude must be between -90 and 90')
    expect(body).toContain('"ok":false')
    expect((await db.agent.findUniqueOrThrow({ where: { id: agent.id } })).locationManualLat).toBe(48.8566)
    await db.$disconnect()
    await context.close()
  })
})
