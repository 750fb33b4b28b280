import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_ORG_ID, DEMO_USERS } from '../../prisma/seed-data'
import { browser, hydrated, portal, portalDb, signInAs, withPortalAndBrowser } from './harness'

withPortalAndBrowser()

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const O = `/organization/${DEMO_ORG_ID}`
/** pages checked side by side */
const PAGES_AT_ONCE = 3
/** a phone's, a tablet's and a desktop's width; each page loads at the first */
const WIDTHS = [390, 768, 1440]
/** the widths axe checks at */
const AXE_WIDTHS = [390, 1440]
const viewport = (width: number) => ({ width, height: width < 768 ? 844 : 900 })
const root = path.resolve(import.meta.dirname, '../..')

type Who = 'anonymous' | 'owner' | 'admin'
const P = `${O}/projects/demo-prj-main-stage0`
const mainPages = (agentId: string): [string, string, Who][] => [
  ['login', '/login', 'anonymous'],
  ['organization list', '/organization/list', 'owner'],
  ['create organization', '/organization/create', 'owner'],
  ['dashboard', `${O}/dashboard`, 'owner'],
  ['projects', `${O}/projects`, 'owner'],
  ['agents list', `${O}/agents`, 'owner'],
  ['agent detail', `${O}/agents/${agentId}`, 'owner'],
  ['project overview', `${P}/overview`, 'owner'],
  ['project agents', `${P}/agents`, 'owner'],
  ['project devices', `${P}/devices`, 'owner'],
  ['project issues', `${P}/issues`, 'owner'],
  ['project audit', `${P}/audit`, 'owner'],
  ['project settings', `${P}/settings`, 'owner'],
  ['readiness', `${P}/readiness`, 'owner'],
  ['members', `${O}/members`, 'owner'],
  ['activity', `${O}/activity`, 'owner'],
  ['notes', `${O}/notes`, 'owner'],
  ['metrics', `${O}/metrics`, 'owner'],
  ['enroll', `/enroll?organizationId=${DEMO_ORG_ID}`, 'owner'],
  ['organization settings', `${O}/settings/general`, 'owner'],
  ['organization projects settings', `${O}/settings/projects`, 'owner'],
  ['organization roles', `${O}/settings/roles`, 'owner'],
  ['notification channels', `${O}/settings/channels`, 'owner'],
  ['service tokens', `${O}/settings/tokens`, 'owner'],
  ['profile settings', '/settings/profile', 'owner'],
  ['preferences', '/settings/preferences', 'owner'],
  ['notification settings', '/settings/notifications', 'owner'],
  ['access rights', '/settings/acl', 'owner'],
  ['invites', '/settings/invites', 'owner'],
  ['personal activity', '/settings/activity', 'owner'],
  ['personal tokens', '/settings/tokens', 'owner'],
  ['about', '/about', 'owner'],
  ['no access', '/no-access', 'owner'],
  ['admin site', '/admin/site', 'admin'],
  ['admin users', '/admin/users', 'admin'],
  ['admin organizations', '/admin/orgs', 'admin'],
  ['admin agents', '/admin/agents', 'admin'],
  ['admin roles', '/admin/roles', 'admin'],
  ['admin sessions', '/admin/sessions', 'admin'],
  ['admin mail', '/admin/mail', 'admin'],
  ['admin utility', '/admin/utility', 'admin'],
]

/**
 * axe-core's serious and critical violations on the page, and skipped heading levels, one line each with the first nodes.
 * Every axe rule has one fixed impact (axe-core 4.x reports a violation with its rule's impact), so
 * the default run without the minor and moderate rules (region, landmarks...) finds exactly what the
 * full run was filtered down to, at a fraction of the cost.
 */
async function axeViolations(page: Page) {
  return page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }
    type Rule = { id: string; impact?: string | null }
    const axe = (window as unknown as { axe: { _audit: { rules: Rule[] }; run: (ctx: Document, options: object) => Promise<Result> } }).axe
    const unreported = axe._audit.rules.filter((r) => (r.impact === 'minor' || r.impact === 'moderate') && r.id !== 'heading-order')
    const result = await axe.run(document, { resultTypes: ['violations'], rules: Object.fromEntries(unreported.map((r) => [r.id, { enabled: false }])) })
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'heading-order').map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`)
  })
}

/** The context of each kind of visitor, made once for the file: pages open in them without signing in again. */
let byWho: Record<Who, BrowserContext>

async function contexts(width: number) {
  const make = async (who: Who) => {
    const context = await browser.newContext({ baseURL: portal.url, viewport: viewport(width) })
    if (who !== 'anonymous') await signInAs(context, portal, DEMO_USERS[who].email)
    return context
  }
  return { anonymous: await make('anonymous'), owner: await make('owner'), admin: await make('admin') } satisfies Record<Who, BrowserContext>
}

async function demoAgent(name = 'Phone Check Agent', serial = 'SN-PHONE') {
  const db = await portalDb(portal)
  try {
    const agent = await db.agent.create({
      data: { clientName: name, secretHash: 'x', organizationId: DEMO_ORG_ID, product: 'Helios', version: '1.0', serial, lastSeen: new Date() },
    })
    return agent.id
  } finally {
    await db.$disconnect()
  }
}

/** How long a condition that holds within a frame or two on a quiet machine may take at load 40: a limit only for a hang. */
const BUSY_MACHINE_WAIT_MS = 90_000

/** What a visitor at `width` would notice on the page as it is laid out now, one line each. */
async function layoutProblems(page: Page, width: number, name: string) {
  const problems: string[] = []
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth)
  if (scrollWidth > width) problems.push(`${width} px ${name}: page is ${scrollWidth} px wide`)
  // a tab strip that scrolls sideways shows its active tab (the last tabs sit past a phone's edge)
  const activeTabShown = await page
    .waitForFunction(() => {
      const active = document.querySelector('[role=tablist] [aria-current="page"]')
      if (!active) return true
      const strip = active.closest('[role=tablist]')!.getBoundingClientRect()
      const tab = active.getBoundingClientRect()
      return tab.left >= strip.left - 1 && tab.right <= strip.right + 1
    }, undefined, { timeout: BUSY_MACHINE_WAIT_MS })
    .then(() => true, () => false)
  if (!activeTabShown) problems.push(`${width} px ${name}: the active tab is scrolled out of sight in its tab strip`)
  // a table wider than its box keeps its first column in view while it scrolls sideways
  const unstuck = await page.evaluate(() =>
    [...document.querySelectorAll('main table')].filter((table) => {
      const box = table.parentElement!
      if (box.scrollWidth <= box.clientWidth + 1) return false
      const first = table.querySelector('tbody tr > :first-child, thead tr > :first-child')
      return !first || getComputedStyle(first).position !== 'sticky'
    }).length,
  )
  if (unstuck) problems.push(`${width} px ${name}: ${unstuck} sideways-scrolling table(s) without a sticky first column`)
  return problems
}

/**
 * Widens the page's viewport, lets two frames pass (resize observers and the renders they cause)
 * and waits until the transitions the new breakpoint started have ended.
 */
async function widen(page: Page, width: number) {
  await page.setViewportSize(viewport(width))
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
  await page.waitForFunction(
    () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
    undefined,
    { timeout: BUSY_MACHINE_WAIT_MS },
  )
}

describe('phones and keyboards', () => {
  let agentId: string
  beforeAll(async () => {
    agentId = await demoAgent()
    byWho = await contexts(WIDTHS[0])
  })
  afterAll(async () => {
    for (const c of Object.values(byWho ?? {})) await c.close()
  })

  it('lays out pages by CSS alone, so one load checked at each width shows what a load at that width would', () => {
    // The width check below loads each page once at the phone's width and then widens the viewport.
    // That equals a load at each width only while no code of the app reads the window's size
    // (decision 078); code that does needs its own loads here. A ResizeObserver (the charts) follows
    // every resize, so it lays out the same either way.
    const readers = readdirSync(path.join(root, 'app'), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.test.ts'))
      .filter((file) => /matchMedia|innerWidth|outerWidth|visualViewport|useMediaQuery/.test(readFileSync(path.join(root, 'app', file), 'utf8')))
    expect(readers).toEqual([])
  })

  // each page loads once, at the phone's width, and is checked there, then widened to a tablet's and
  // a desktop's (transitions settled) and checked again; axe at the phone width (menu sheet, stacked
  // layouts) and at the desktop width (sidebar and its menus on screen)
  it(`fits every main page into ${WIDTHS.join(', ')} px with its first table column in view and no serious or critical axe violation`, async () => {
    const problems: string[] = []
    const checkPage = async ([name, url, who]: [string, string, Who]) => {
      const page = await byWho[who].newPage()
      page.setDefaultTimeout(30_000)
      await page.goto(url)
      await page.locator('main h1, main h2').first().waitFor()
      await page.waitForLoadState('load')
      await page.evaluate(axeSource) // evaluated through the protocol, so the page's CSP does not block it
      for (const width of WIDTHS) {
        if (width !== WIDTHS[0]) await widen(page, width)
        problems.push(...(await layoutProblems(page, width, name)))
        if (AXE_WIDTHS.includes(width)) for (const v of await axeViolations(page)) problems.push(`${width} px ${name}: ${v}`)
      }
      await page.close()
    }
    // A few pages at a time: one page mostly waits for the portal or the renderer, so a few side by side
    // keep both cores busy (each page still gets its own load; nothing shares a document).
    const queue = [...mainPages(agentId)]
    await Promise.all(Array.from({ length: PAGES_AT_ONCE }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await checkPage(next)
    }))
    problems.sort()
    expect(problems).toEqual([])
  }, 900_000)

  it('offers a skip link first and marks sortable headers with aria-sort', async () => {
    const login = await byWho.anonymous.newPage()
    await login.goto('/login')
    // the first focusable element of the page (the e-mail field has autofocus, so Tab starts after it)
    const firstFocusable = () => document.querySelector<HTMLElement>('a[href], button, input, select, textarea, [tabindex="0"]')?.textContent?.trim()
    await expect(login.evaluate(firstFocusable)).resolves.toBe('Skip to content')
    await login.getByRole('link', { name: 'Skip to content' }).focus()
    await login.keyboard.press('Enter')
    await expect(login.evaluate(() => document.activeElement?.id)).resolves.toBe('main-content')

    const page = await byWho.owner.newPage()
    await page.goto(`${O}/agents`)
    await page.keyboard.press('Tab')
    await expect(page.evaluate(() => document.activeElement?.textContent?.trim())).resolves.toBe('Skip to content')
    const nameHeader = page.getByRole('columnheader', { name: /Name/ })
    await expect(nameHeader.getAttribute('aria-sort')).resolves.toMatch(/^(none|ascending|descending)$/)
    await login.close()
    await page.close()
  })

  it('returns focus to the opener of a dialog and fits the dialog into a phone', async () => {
    await demoAgent('Dialog Check Agent', 'SN-DIALOG')
    const page = await byWho.owner.newPage()
    await page.goto(`${O}/agents`)
    const remove = page.getByRole('button', { name: 'Remove Dialog Check Agent' })
    await remove.waitFor()
    await hydrated(page)
    await remove.focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('alertdialog')
    await dialog.waitFor()
    // fits the phone's width with a margin
    const box = await dialog.boundingBox()
    expect(box!.x).toBeGreaterThanOrEqual(8)
    expect(box!.x + box!.width).toBeLessThanOrEqual(390 - 8)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Remove Dialog Check Agent')
    await page.close()
  })
})
