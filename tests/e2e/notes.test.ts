import { type Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { formatDateTime } from '~/utils/format-time'
import { DEMO_ORG_ID, DEMO_PASSWORD, DEMO_USERS } from '../../prisma/seed-data'
import { browser, newPage, portal, portalDb, signIn, withPortalAndBrowser } from './harness'

withPortalAndBrowser()

/** Keyboard shortcuts work once React has hydrated the page. */
const hydrated = (page: Page) => page.waitForFunction(() => Boolean((window as unknown as { __remixRouter?: unknown }).__remixRouter))

describe('notes panel', () => {
  it("toggles with the key 'n', ignores 'n' typed in the note, and creates a note for the page", async () => {
    const { context, page } = await newPage(browser, portal.url)
    await signIn(page, DEMO_USERS.owner.email, DEMO_PASSWORD)
    await page.goto(`/organization/${DEMO_ORG_ID}/agents`)
    await hydrated(page)
    const panel = page.getByRole('complementary', { name: 'Notes panel' })
    expect(await panel.count()).toBe(0)

    await page.keyboard.press('n')
    await panel.waitFor()
    await panel.getByText('No notes').waitFor()
    expect(await panel.getByText('Get started by creating a new note.').isVisible()).toBe(true)

    await panel.getByRole('button', { name: 'New Note' }).click()
    const textarea = panel.getByRole('textbox', { name: 'Note' })
    await textarea.click()
    await page.keyboard.type('Genlock on node nine needs attention')
    expect(await panel.isVisible()).toBe(true)
    expect(await textarea.inputValue()).toBe('Genlock on node nine needs attention')

    // Leaving the unsaved form asks first; cancelling keeps the text.
    await panel.getByRole('button', { name: 'Back to notes' }).click()
    const confirm = page.getByRole('alertdialog')
    await confirm.getByText('You have unsaved note changes. Are you sure you want to leave?').waitFor()
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    expect(await textarea.inputValue()).toBe('Genlock on node nine needs attention')

    await panel.getByRole('radio', { name: 'green' }).click()
    await panel.getByRole('button', { name: 'Create' }).click()
    await page.getByText('Note created').waitFor()

    await panel.getByRole('button', { name: 'Back to notes' }).click()
    await panel.getByText('Genlock on node nine needs attention').waitFor()

    // 'n' outside a field closes the panel again.
    await page.getByRole('heading', { name: 'Agents', exact: true }).click()
    await page.keyboard.press('n')
    await panel.waitFor({ state: 'detached' })

    // The note is stored for this page: after a reload it is listed, and not on another page.
    await page.reload()
    await hydrated(page)
    await page.getByRole('button', { name: 'Notes' }).click()
    await panel.getByText('Genlock on node nine needs attention').waitFor()
    // Moving to another page keeps the panel open and lists that page's notes.
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Projects' }).click()
    await page.waitForURL((url) => url.pathname.endsWith('/projects'))
    await panel.getByText('No notes').waitFor()

    // And on the organization's Notes page.
    await page.goto(`/organization/${DEMO_ORG_ID}/notes`)
    await page.getByRole('heading', { name: 'Notes', exact: true }).waitFor()
    const row = page.getByRole('row').filter({ hasText: 'Genlock on node nine needs attention' })
    await row.waitFor()
    expect(await row.getByText(DEMO_USERS.owner.name).isVisible()).toBe(true)
    await context.close()
  })
})

describe('dates on server-rendered pages', () => {
  it("hydrate without a mismatch in a browser far from the server's zone, then show the browser's zone", async () => {
    const db = await portalDb(portal)
    try {
      const owner = await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS.owner.email } })
      // Fixed times in the first hour of the day, whatever the wall clock: 00:33 in the browser's zone
      // (Auckland is UTC+13 in January) and 00:47 in UTC, the zone the server renders in before hydration.
      // `hour12: false` renders those as '24:33' in some ICU builds; both sides must say '00:33'.
      for (const [content, at] of [
        ['Zone check note', '2026-01-15T11:33:00.000Z'],
        ['Midnight UTC note', '2026-01-15T00:47:00.000Z'],
      ]) {
        await db.note.create({
          data: { organizationId: DEMO_ORG_ID, authorId: owner.id, content, resourcePath: `/organization/${DEMO_ORG_ID}/projects`, createdAt: new Date(at), updatedAt: new Date(at) },
        })
      }
    } finally {
      await db.$disconnect()
    }
    const timeZone = 'Pacific/Auckland'
    const context = await browser.newContext({ baseURL: portal.url, locale: 'de-DE', timezoneId: timeZone, viewport: { width: 1400, height: 900 } })
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`))
    page.on('console', (m) => m.type() === 'error' && /hydrat/i.test(m.text()) && errors.push(`${page.url()}: ${m.text()}`))
    await signIn(page, DEMO_USERS.owner.email, DEMO_PASSWORD)
    for (const path of ['activity', 'members', 'notes']) {
      await page.goto(`/organization/${DEMO_ORG_ID}/${path}`)
      await hydrated(page)
      await page.waitForLoadState('networkidle')
    }
    expect(errors).toEqual([])

    // After hydration the Notes table shows the time in the browser's zone, not the server's.
    const cell = page.getByRole('row').filter({ hasText: 'Zone check note' }).locator('time').first()
    const iso = await cell.getAttribute('datetime')
    expect(iso).toBe('2026-01-15T11:33:00.000Z')
    // The app's own formatter gives the expectation; the literal pins the 24-hour clock at 00:xx.
    expect(formatDateTime(iso, { timeZone })).toBe('Jan 16, 2026, 00:33')
    await expect.poll(() => cell.textContent()).toBe('Jan 16, 2026, 00:33')
    const utcMidnight = page.getByRole('row').filter({ hasText: 'Midnight UTC note' }).locator('time').first()
    await expect.poll(() => utcMidnight.textContent()).toBe('Jan 15, 2026, 13:47')
    await context.close()
  })
})
