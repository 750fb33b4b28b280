import { type Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { DEMO_ORG_ID, DEMO_USERS } from '../../prisma/seed-data'
import { browser, newPage, portal, signInAs, withPortalAndBrowser } from './harness'

withPortalAndBrowser()

const edit = `/organization/${DEMO_ORG_ID}/edit`
const tabNames = (page: Page) => page.getByRole('tablist').first().getByRole('tab').allTextContents()
const hydrated = (page: Page) => page.waitForFunction(() => Boolean((window as unknown as { __remixRouter?: unknown }).__remixRouter))

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
      ['Roles', 'roles', 'Organization Viewer'],
      ['Audit Log', 'audit', 'Activity'],
      ['Projects', 'projects', 'Main Stage'],
      ['Agents', 'agents', 'Filter agents...'],
      ['Settings', 'settings', 'Organization ID'],
    ] as const) {
      await page.getByRole('tablist').first().getByRole('tab', { name: tab }).click()
      await page.waitForURL((url) => url.pathname === `${edit}/${path}`)
      await page.getByText(probe, { exact: true }).or(page.getByPlaceholder(probe)).first().waitFor()
      expect(await page.getByRole('tab', { name: tab, selected: true }).count()).toBeGreaterThanOrEqual(0)
    }
    // a tab URL opened directly shows that tab
    await page.goto(`${edit}/roles`)
    await page.getByText('Organization Viewer', { exact: true }).first().waitFor()
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
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Members of Volume A')

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
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Settings of Volume A')
    expect(new URL(page.url()).pathname).toBe(list)
    await context.close()
  })
})
