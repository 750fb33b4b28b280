import { describe, expect, it } from 'vitest'
import { DEMO_ORG_ID, DEMO_USERS } from '../../prisma/seed-data'
import { browser, newPage, portal, portalDb, signInAs, withPortalAndBrowser } from './harness'

withPortalAndBrowser({ INSTANCE_NAME: 'staging' })

describe('application shell', () => {
  it('guards signed-in routes with a redirect query', async () => {
    const { context, page } = await newPage(browser, portal.url)
    await page.goto('/organization/list')
    expect(new URL(page.url()).pathname).toBe('/login')
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/organization/list')
    await context.close()
  })

  it('shows not found, strips /a/ and shows the version on About', async () => {
    const { context, page } = await newPage(browser, portal.url)
    const response = await page.goto('/no/such/page')
    expect(response?.status()).toBe(404)
    await expect(page.getByRole('heading', { name: 'Not found' }).isVisible()).resolves.toBe(true)
    await expect(page.getByRole('link', { name: 'Back to home' }).isVisible()).resolves.toBe(true)
    await signInAs(context, portal, DEMO_USERS.viewer.email)
    await page.goto('/a/about')
    expect(new URL(page.url()).pathname).toBe('/about')
    await expect(page.getByTestId('version-text').textContent()).resolves.toBe('25.03.0 build 1486')
    await context.close()
  })

  it('gates sidebar items and pages by permission', async () => {
    const viewer = await newPage(browser, portal.url)
    await signInAs(viewer.context, portal, DEMO_USERS.viewer.email)
    await viewer.page.goto(`/organization/${DEMO_ORG_ID}/projects`)
    const nav = viewer.page.getByRole('navigation', { name: 'Organization' })
    await nav.getByRole('link', { name: 'Projects' }).waitFor()
    expect(await nav.getByRole('link', { name: 'Activity' }).count()).toBe(0)
    expect(await viewer.page.getByRole('link', { name: 'Add Agent', exact: true }).count()).toBe(0)
    expect(await viewer.page.getByRole('link', { name: 'Admin' }).count()).toBe(0)
    await viewer.page.goto(`/organization/${DEMO_ORG_ID}/activity`)
    await expect(viewer.page.getByRole('heading', { name: 'Access denied' }).isVisible()).resolves.toBe(true)
    await viewer.page.goto('/admin/site')
    expect(new URL(viewer.page.url()).pathname).not.toMatch(/^\/admin/)
    await viewer.context.close()

    const owner = await newPage(browser, portal.url)
    await signInAs(owner.context, portal, DEMO_USERS.owner.email)
    await owner.page.goto(`/organization/${DEMO_ORG_ID}/projects`)
    const ownerNav = owner.page.getByRole('navigation', { name: 'Organization' })
    await ownerNav.getByRole('link', { name: 'Activity' }).waitFor()
    expect(await owner.page.getByRole('link', { name: 'Add Agent', exact: true }).count()).toBe(1)
    await expect(owner.page.getByTestId('instance-badge').textContent()).resolves.toBe('staging')
    await owner.context.close()
  })

  it('saves the collapsed sidebar to the profile and shows active site messages', async () => {
    const db = await portalDb(portal)
    const now = Date.now()
    await db.siteMessage.create({ data: { text: 'Maintenance tonight at 22:00', type: 'warning', starts: new Date(now - 60_000), ends: new Date(now + 3600_000) } })
    await db.siteMessage.create({ data: { text: 'A future message', type: 'info', starts: new Date(now + 3600_000), ends: new Date(now + 7200_000) } })

    const { context, page } = await newPage(browser, portal.url)
    const user = await signInAs(context, portal, DEMO_USERS.member.email)
    await page.goto(`/organization/${DEMO_ORG_ID}/projects`)
    // written behind the portal's back (no change event): site rows are cached up to SITE_CACHE_MS
    await expect
      .poll(async () => (await page.getByText('Maintenance tonight at 22:00').isVisible()) || (await page.reload(), false), { timeout: 30_000, interval: 1000 })
      .toBe(true)
    expect(await page.getByText('A future message').count()).toBe(0)

    await page.getByRole('button', { name: 'Collapse sidebar' }).click()
    await expect(page.locator('aside').getAttribute('data-collapsed')).resolves.toBe('true')
    await expect.poll(async () => (await db.user.findUniqueOrThrow({ where: { id: user.id } })).preferenceSidebarCollapsed).toBe(true)
    await page.reload()
    await expect(page.locator('aside').getAttribute('data-collapsed')).resolves.toBe('true')
    await db.$disconnect()
    await context.close()
  })

  it('renders signed-in pages without hydration errors', async () => {
    const { context, page } = await newPage(browser, portal.url)
    await signInAs(context, portal, DEMO_USERS.owner.email)
    const errors: string[] = []
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text())
    })
    page.on('pageerror', (e) => errors.push(e.message))
    for (const path of [`/organization/${DEMO_ORG_ID}/projects`, '/about', '/organization/list']) {
      await page.goto(path)
      await page.waitForLoadState('networkidle')
    }
    expect(errors.filter((e) => /hydrat|#418|#423|#425/i.test(e))).toEqual([])
    await context.close()
  })

  it('turns the sidebar into a drawer on a phone: menu button, links, closes on navigation', async () => {
    const { context, page } = await newPage(browser, portal.url)
    await signInAs(context, portal, DEMO_USERS.owner.email)
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/organization/list')
    // the rail is gone at 390 px, so the page has the full width
    await expect.poll(() => page.getByRole('navigation', { name: 'Organization' }).count()).toBe(0)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await page.getByRole('button', { name: 'Open menu' }).click()
    const drawer = page.getByRole('dialog', { name: 'Menu' })
    await drawer.getByRole('link', { name: 'Projects' }).click()
    await page.waitForURL(`**/organization/${DEMO_ORG_ID}/projects`)
    await expect.poll(() => drawer.count()).toBe(0)
    // back on a desktop width the rail returns and the menu button hides
    await page.setViewportSize({ width: 1440, height: 900 })
    await expect.poll(() => page.getByRole('navigation', { name: 'Organization' }).isVisible()).toBe(true)
    expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(false)
    await context.close()
  })
})
