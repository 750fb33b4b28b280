import { describe, expect, it } from 'vitest'
import { formatDateTime } from '~/utils/format-time'
import { DEMO_ORG_ID, DEMO_PASSWORD, DEMO_USERS } from '../../prisma/seed-data'
import { browser, hydrated, newPage, portal, portalDb, signIn, signInAs, withPortalAndBrowser } from './harness'

withPortalAndBrowser()

/** Keyboard shortcuts work once React has hydrated the page. */

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
    // the toast sits over the panel's header and stays while the pointer rests on it
    await page.getByText('Note created').waitFor({ state: 'hidden' })

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

describe('note links', () => {
  it('/notes/{noteId} opens that note inside the shell, copies its link, and refuses foreign or unviewable notes', async () => {
    const db = await portalDb(portal)
    let noteId: string, foreignNoteId: string, otherOrgId: string
    try {
      const owner = await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS.owner.email } })
      noteId = (await db.note.create({ data: { organizationId: DEMO_ORG_ID, authorId: owner.id, content: 'Shared link note: swap the PSU on rack 3', color: 'red', resourcePath: `/organization/${DEMO_ORG_ID}/agents` } })).id
      const other = await db.organization.create({ data: { name: 'Links Other Org', ownerId: owner.id } })
      otherOrgId = other.id
      foreignNoteId = (await db.note.create({ data: { organizationId: other.id, authorId: owner.id, content: 'Foreign note', resourcePath: `/organization/${other.id}/projects` } })).id
      // a member who may list notes but not view one
      const lister = await db.user.create({ data: { email: 'lister@notes-links.test', name: 'Lisa Lister', emailVerified: true } })
      const role = await db.role.create({ data: { name: 'Note lister', organizationId: DEMO_ORG_ID, orgRef: DEMO_ORG_ID, resourceType: 1, permissions: '["org.view","note.list"]' } })
      await db.accessRight.create({ data: { userId: lister.id, roleId: role.id, organizationId: DEMO_ORG_ID } })
      await db.compiledAcl.create({ data: { userId: lister.id, organizationId: DEMO_ORG_ID, projectId: '*', permissions: '["org.view","note.list"]' } })
    } finally {
      await db.$disconnect()
    }

    const { context, page } = await newPage(browser, portal.url)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: portal.url })
    await signInAs(context, portal, DEMO_USERS.owner.email)
    const link = `/organization/${DEMO_ORG_ID}/notes/${noteId}`
    await page.goto(link)
    await hydrated(page)
    const dialog = page.getByRole('dialog')
    await dialog.getByText('Shared link note: swap the PSU on rack 3').waitFor()
    // the modal hides the page from the accessibility tree, so look for the page and shell by text
    expect(await page.getByText('View and manage your notes across your organization').isVisible()).toBe(true)
    expect(await page.locator('nav[aria-label="Organization"]').isVisible()).toBe(true)

    await dialog.getByRole('button', { name: 'Copy link' }).click()
    await page.getByText('Note link copied').waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${portal.url}${link}`)

    // Closing returns to /notes; opening a row puts the note's address in the URL again.
    await page.keyboard.press('Escape')
    await page.waitForURL((url) => url.pathname === `/organization/${DEMO_ORG_ID}/notes`)
    await page.getByRole('button', { name: /Shared link note/ }).click()
    await page.waitForURL((url) => url.pathname === link)
    await dialog.getByText('Shared link note: swap the PSU on rack 3').waitFor()
    await page.keyboard.press('Escape')

    // The notes panel copies a note's link too.
    await page.goto(`/organization/${DEMO_ORG_ID}/agents`)
    await hydrated(page)
    await page.getByRole('button', { name: 'Notes' }).click()
    const panel = page.getByRole('complementary', { name: 'Notes panel' })
    await panel.getByText('Shared link note: swap the PSU on rack 3').click()
    await page.evaluate(() => navigator.clipboard.writeText(''))
    await panel.getByRole('button', { name: 'Copy link' }).click()
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(`${portal.url}${link}`)

    // Unknown ids and another organization's note: Not found, inside the shell.
    for (const path of [`/organization/${DEMO_ORG_ID}/notes/no-such-note-000000`, `/organization/${DEMO_ORG_ID}/notes/${foreignNoteId}`]) {
      const response = await page.goto(path)
      expect(response?.status()).toBe(404)
      await page.getByRole('heading', { name: 'Not found' }).waitFor()
      expect(await page.getByRole('navigation', { name: 'Organization' }).isVisible()).toBe(true)
    }
    await context.close()

    // A member without note.view: Access denied for the link (the list itself still opens).
    const lister = await newPage(browser, portal.url)
    await signInAs(lister.context, portal, 'lister@notes-links.test')
    expect((await lister.page.goto(link))?.status()).toBe(403)
    await lister.page.getByRole('heading', { name: 'Access denied' }).waitFor()
    expect((await lister.page.goto(`/organization/${DEMO_ORG_ID}/notes`))?.status()).toBe(200)
    // and outside the member's organizations the link is refused too
    expect((await lister.page.goto(`/organization/${otherOrgId}/notes/${foreignNoteId}`))?.status()).toBe(403)
    await lister.context.close()
  })
})
