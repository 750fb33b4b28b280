import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { BrowserContext, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { DEMO_ORG_ID, DEMO_USERS } from '../../prisma/seed-data'
import { browser, portal, portalDb, signInAs, withPortalAndBrowser } from './harness'

withPortalAndBrowser()

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const O = `/organization/${DEMO_ORG_ID}`
/** pages checked side by side per width */
const PAGES_AT_ONCE = 3

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
  await page.evaluate(axeSource) // evaluated through the protocol, so the page's CSP does not block it
  return page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }
    type Rule = { id: string; impact?: string | null }
    const axe = (window as unknown as { axe: { _audit: { rules: Rule[] }; run: (ctx: Document, options: object) => Promise<Result> } }).axe
    const unreported = axe._audit.rules.filter((r) => (r.impact === 'minor' || r.impact === 'moderate') && r.id !== 'heading-order')
    const result = await axe.run(document, { resultTypes: ['violations'], rules: Object.fromEntries(unreported.map((r) => [r.id, { enabled: false }])) })
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'heading-order').map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`)
  })
}

async function contexts(width: number) {
  const make = async (who: Who) => {
    const context = await browser.newContext({ baseURL: portal.url, viewport: { width, height: width < 768 ? 844 : 900 } })
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

describe('phones and keyboards', () => {
  let agentId: string
  beforeAll(async () => {
    agentId = await demoAgent()
  })

  // one test per width: each visits every main page, so each gets its own generous limit
  it.each([390, 768, 1440])('fits every main page into %i px with its first table column in view and no serious or critical axe violation', async (width) => {
    const problems: string[] = []
    const byWho = await contexts(width)
    const checkPage = async ([name, url, who]: [string, string, Who]) => {
      const page = await byWho[who].newPage()
      page.setDefaultTimeout(30_000)
      await page.goto(url)
      await page.locator('main h1, main h2').first().waitFor()
      await page.waitForLoadState('load')
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
        }, undefined, { timeout: 15_000 })
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
      // axe at the desktop width (sidebar and its menus on screen) and at the phone width (menu sheet, stacked layouts)
      if (width !== 768) for (const v of await axeViolations(page)) problems.push(`${width} px ${name}: ${v}`)
      await page.close()
    }
    // A few pages at a time: one page mostly waits for the portal or the renderer, so a few side by side
    // keep both cores busy (each page still gets its own load; nothing shares a document).
    const queue = [...mainPages(agentId)]
    await Promise.all(Array.from({ length: PAGES_AT_ONCE }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await checkPage(next)
    }))
    problems.sort()
    for (const c of Object.values(byWho)) await c.close()
    expect(problems).toEqual([])
  }, 900_000)

  it('offers a skip link first and marks sortable headers with aria-sort', async () => {
    const byWho = await contexts(390)
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

    for (const c of Object.values(byWho)) await c.close()
  })

  it('returns focus to the opener of a dialog and fits the dialog into a phone', async () => {
    await demoAgent('Dialog Check Agent', 'SN-DIALOG')
    const byWho = await contexts(390)
    const page = await byWho.owner.newPage()
    await page.goto(`${O}/agents`)
    const remove = page.getByRole('button', { name: 'Remove Dialog Check Agent' })
    await remove.waitFor()
    await page.waitForFunction(() => Boolean((window as unknown as { __remixRouter?: unknown }).__remixRouter)) // hydrated
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

    for (const c of Object.values(byWho)) await c.close()
  })
})
