/**
 * Settings > Notifications in the browser: the 'When resolved' switch and the 'Repeat while active'
 * choice of a row follow its override (inherited and greyed without one), save through the form,
 * and are stored and audited. NOTIFY_SHOTS=dir takes screenshots at 1440 and 390 px wide.
 */
import { mkdirSync } from 'node:fs'
import { type Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { DEMO_ORG_ID, DEMO_USERS } from '../../prisma/seed-data'
import { browser, hydrated, portal, portalDb, signInAs, withPortalAndBrowser } from './harness'

withPortalAndBrowser()


async function shoot(page: Page, name: string) {
  const dir = process.env.NOTIFY_SHOTS
  if (!dir) return
  mkdirSync(dir, { recursive: true })
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 })
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true })
  }
  // on a phone the table scrolls sideways: the new columns are at its right end
  await page.locator('table[aria-label="Notification subscriptions"]').evaluate((table) => table.parentElement!.scrollTo({ left: table.scrollWidth }))
  await page.screenshot({ path: `${dir}/${name}-390-scrolled.png`, fullPage: true })
  await page.setViewportSize({ width: 1400, height: 900 })
}

async function subscriptionOf(email: string, level: string, target: string) {
  const db = await portalDb(portal)
  try {
    const user = await db.user.findUniqueOrThrow({ where: { email } })
    return await db.subscription.findUnique({ where: { userId_level_target: { userId: user.id, level, target } } })
  } finally {
    await db.$disconnect()
  }
}

async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const value = await read()
    if (done(value) || i >= 300) return value
    await new Promise((r) => setTimeout(r, 200))
  }
}

describe('notification settings: resolved and repeat', () => {
  it('edits notify-when-resolved and repeat-while-active on an organization override', async () => {
    const context = await browser.newContext({ baseURL: portal.url, viewport: { width: 1400, height: 900 } })
    const page = await context.newPage()
    page.setDefaultTimeout(60_000)
    const email = DEMO_USERS.owner.email
    await signInAs(context, portal, email)
    await page.goto('/settings/notifications')
    await hydrated(page)

    const organization = (await page.locator('table[aria-label="Notification subscriptions"] tbody tr').nth(1).locator('td').first().textContent())!.trim()
    const resolved = page.getByRole('switch', { name: `Notify when resolved for ${organization}` })
    const repeat = page.getByLabel(`Repeat while active for ${organization}`)
    // no override yet: what it inherits, greyed out
    await expect.poll(() => resolved.isDisabled()).toBe(true)
    expect(await repeat.isDisabled()).toBe(true)
    expect(await repeat.inputValue()).toBe('0')

    const before = await subscriptionOf(email, 'organization', DEMO_ORG_ID)
    if (!before) {
      await page.getByRole('switch', { name: `Override for ${organization}` }).click()
      await poll(() => subscriptionOf(email, 'organization', DEMO_ORG_ID), (s) => s !== null)
    }
    await expect.poll(() => repeat.isEnabled()).toBe(true)
    await repeat.selectOption({ label: 'Every 4 h' })
    await expect.poll(async () => (await subscriptionOf(email, 'organization', DEMO_ORG_ID))?.repeatMinutes).toBe(240)
    await expect.poll(() => resolved.isEnabled()).toBe(true)
    expect(await resolved.getAttribute('aria-checked')).toBe('true')
    await resolved.click()
    const saved = await poll(() => subscriptionOf(email, 'organization', DEMO_ORG_ID), (s) => s?.notifyResolved === false)
    expect(saved).toMatchObject({ notifyResolved: false, repeatMinutes: 240 })

    await page.reload()
    await hydrated(page)
    expect(await repeat.inputValue()).toBe('240')
    expect(await resolved.getAttribute('aria-checked')).toBe('false')
    const db = await portalDb(portal)
    try {
      const audit = await db.auditRecord.findMany({ where: { action: 'subscription.update', message: { contains: 'notify when resolved off' } } })
      expect(audit.length).toBeGreaterThanOrEqual(1)
    } finally {
      await db.$disconnect()
    }
    await shoot(page, 'notification-settings')
    await context.close()
  })
})
