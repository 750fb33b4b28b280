/**
 * The console's keyboard and personal touches (issue #29): 'n' moves the focus into the notes
 * panel and Escape closes it back to where it was (a full-screen sheet on phones), '?' lists the
 * shortcuts, the theme follows the system or the person's choice from the first byte (no flash),
 * and the agents list keeps named views.
 */
import { type Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { DEMO_ORG_ID, DEMO_USERS } from '../../prisma/seed-data'
import { browser, hydrated, portal, signInAs, withPortalAndBrowser } from './harness'

withPortalAndBrowser()

const O = `/organization/${DEMO_ORG_ID}`
/** Shortcuts work once React has hydrated the page (generous: the test machine may be busy). */
const activeLabel = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.tagName)
const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor)
/** rgb(r, g, b) -> its mean channel: < 80 is a dark background, > 200 a light one */
const brightness = (rgb: string) => {
  const [r, g, b] = rgb.match(/\d+/g)!.map(Number)
  return (r! + g! + b!) / 3
}

async function ownerPage(width: number, colorScheme: 'light' | 'dark' = 'light') {
  const context = await browser.newContext({ baseURL: portal.url, viewport: { width, height: width < 768 ? 844 : 900 }, colorScheme })
  await signInAs(context, portal, DEMO_USERS.owner.email)
  const page = await context.newPage()
  page.setDefaultTimeout(30_000)
  return { context, page }
}

describe('keyboard, theme and saved views', () => {
  it("'n' focuses the notes panel, Escape closes it and returns the focus; on a phone it fills the screen", async () => {
    for (const width of [1440, 390]) {
      const { context, page } = await ownerPage(width)
      await page.goto(`${O}/projects`)
      await hydrated(page)
      const notesButton = page.getByRole('button', { name: 'Notes' })
      await notesButton.focus()
      await page.keyboard.press('n')
      const panel = page.getByRole('complementary', { name: 'Notes panel' })
      await panel.waitFor()
      await expect.poll(() => activeLabel(page)).toBe('Notes panel')
      if (width < 768) {
        const box = await panel.boundingBox()
        expect(box).toMatchObject({ x: 0, y: 0, width: 390 })
      }
      await page.keyboard.press('Escape')
      await panel.waitFor({ state: 'detached' })
      await expect.poll(() => activeLabel(page)).toBe('Notes')
      await context.close()
    }
  })

  it('a control focused before the page went live keeps the focus when its live version replaces it', async () => {
    const { context, page } = await ownerPage(1440)
    // hold the client's entry script until the server's Notes button has the focus
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route(/entry\.client[^/]*\.js$/, async (route) => {
      await held
      await route.continue()
    })
    await page.goto(`${O}/projects`, { waitUntil: 'domcontentloaded' })
    await page.getByRole('button', { name: 'Notes' }).focus()
    expect(await page.evaluate(() => document.documentElement.hasAttribute('data-hydrated'))).toBe(false)
    release()
    await hydrated(page)
    expect(await activeLabel(page)).toBe('Notes')
    await page.keyboard.press('n')
    const panel = page.getByRole('complementary', { name: 'Notes panel' })
    await panel.waitFor()
    await page.keyboard.press('Escape')
    await panel.waitFor({ state: 'detached' })
    await expect.poll(() => activeLabel(page)).toBe('Notes')
    await context.close()
  })

  it('a notes panel whose code cannot be loaded says so and offers a reload; the page stays', async () => {
    const { context, page } = await ownerPage(1440)
    // its chunk fails, as after a deploy removed it or on a dropped connection
    await page.route(/open-notes-panel[^/]*\.js$/, (route) => route.abort())
    await page.goto(`${O}/projects`)
    await hydrated(page)
    await page.getByRole('button', { name: 'Notes' }).click()
    const panel = page.getByRole('complementary', { name: 'Notes panel' })
    await panel.getByText('The notes panel could not be loaded').waitFor()
    expect(await panel.getByRole('button', { name: 'Reload page' }).count()).toBe(1)
    expect(await page.getByRole('heading', { name: 'Projects', exact: true }).count()).toBe(1)
    await panel.getByRole('button', { name: 'Close notes' }).click()
    await panel.waitFor({ state: 'detached' })
    await context.close()
  })

  it("'?' opens the list of keyboard shortcuts (not while typing) and Escape closes it", async () => {
    const { context, page } = await ownerPage(1440)
    await page.goto(`${O}/agents`)
    await hydrated(page)
    await page.getByRole('textbox', { name: 'Filter by name' }).focus()
    await page.keyboard.type('?')
    expect(await page.getByRole('dialog').count()).toBe(0)
    await page.getByRole('heading', { name: 'Agents', exact: true }).click()
    await page.keyboard.press('?')
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
    await sheet.waitFor()
    expect(await sheet.getByRole('row').filter({ hasText: 'Open or close the notes panel' }).count()).toBe(1)
    await page.keyboard.press('Escape')
    await sheet.waitFor({ state: 'detached' })
    await context.close()
  })

  it('follows the system theme, keeps a chosen one in a cookie and renders it on the server (no flash)', async () => {
    const dark = await ownerPage(1440, 'dark')
    await dark.page.goto(`${O}/projects`)
    expect(brightness(await bodyBackground(dark.page))).toBeLessThan(80)
    await dark.context.close()

    const { context, page } = await ownerPage(1440, 'light')
    await page.goto(`${O}/projects`)
    await hydrated(page)
    expect(brightness(await bodyBackground(page))).toBeGreaterThan(200)
    await page.getByRole('button', { name: /^Theme:/ }).click()
    await page.getByRole('menuitemradio', { name: 'Dark' }).click()
    await expect.poll(async () => brightness(await bodyBackground(page))).toBeLessThan(80)
    await expect.poll(async () => (await context.cookies()).find((c) => c.name === 'pf_theme')?.value).toBe('dark')
    // the server's HTML already carries the theme: nothing light is painted first
    const html = await (await page.request.get(`${O}/projects`)).text()
    expect(html).toMatch(/<html lang="en" class="dark"/)
    // a bad value changes nothing
    const bad = await page.request.post('/resources/theme', { form: { theme: 'purple' } })
    expect(bad.status()).toBe(400)
    expect((await context.cookies()).find((c) => c.name === 'pf_theme')?.value).toBe('dark')
    await context.close()
  })

  it('saves the filters of the agents list as a named view and applies it later', async () => {
    const { context, page } = await ownerPage(1440)
    const filters = Buffer.from(JSON.stringify([{ id: 'connected', value: ['Disconnected'] }])).toString('base64')
    await page.goto(`${O}/agents?filters=${encodeURIComponent(filters)}`)
    await hydrated(page)
    await page.getByRole('button', { name: 'Views' }).click()
    const menu = page.getByRole('dialog', { name: 'Saved views' })
    await menu.getByText('No saved views yet.', { exact: false }).waitFor()
    await menu.getByRole('textbox', { name: 'Name of the view' }).fill('Offline walls')
    await menu.getByRole('button', { name: 'Save' }).click()
    await page.getByText('View saved').waitFor()
    await menu.getByRole('button', { name: 'Offline walls', exact: true }).waitFor()
    await page.keyboard.press('Escape')

    await page.goto(`${O}/agents`)
    await hydrated(page)
    await page.getByRole('button', { name: 'Views' }).click()
    await page.getByRole('dialog', { name: 'Saved views' }).getByRole('button', { name: 'Offline walls', exact: true }).click()
    await page.waitForURL((url) => url.searchParams.get('filters') === filters)
    await context.close()
  })
})
