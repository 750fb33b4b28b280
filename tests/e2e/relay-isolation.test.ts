/**
 * Issue 10 in Chromium, against the real portal browsed as http://localhost (the default
 * development layout, where the portal and the relay share the host name `localhost`):
 * - an agent's page (a hostile one, served through a real tunnel) cannot register a service
 *   worker, nor plant a portal session cookie (item 1, 2);
 * - the frame's one-time address is useless in another browser, and the session does not work
 *   opened directly; it ends on sign-out, account disable and expiry (item 3);
 * - the portal's main pages run under the CSP without a single violation (item 10);
 * - the frame is sandboxed: a click in the agent page cannot navigate the portal tab (issue 28).
 */
import { createHash, randomBytes } from 'node:crypto'
import http from 'node:http'
import { type AddressInfo } from 'node:net'
import { type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_ORG_ID, DEMO_USERS } from '../../prisma/seed-data'
import { TunnelClient } from '../../simulator/tunnel'
import { browser, portal, portalDb, withPortalAndBrowser } from './harness'

const STAGE_LEFT = 'demo-prj-stage-left0'
const SHOTS = process.env.PIXELFLEET_SCREENSHOTS
const sha256 = (v: string) => createHash('sha256').update(v).digest('hex')

withPortalAndBrowser()

let evilUi: http.Server
let tunnel: TunnelClient
let agentId: string
let attackerCookie: string
let base: string

/** A stored sign-in as a cookie value the portal accepts (Remix serialises a string as base64 JSON). */
async function storedSession(email: string) {
  const db = await portalDb(portal)
  try {
    const user = await db.user.findUniqueOrThrow({ where: { email } })
    const token = randomBytes(32).toString('base64url')
    await db.session.create({ data: { userId: user.id, tokenHash: sha256(token), expiresAt: new Date(Date.now() + 3600_000) } })
    return encodeURIComponent(Buffer.from(JSON.stringify(token), 'utf8').toString('base64'))
  } finally {
    await db.$disconnect()
  }
}

async function signedInContext(email: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 } })
  if (email) await context.addCookies([{ name: 'pf_session', value: await storedSession(email), url: base, httpOnly: true, sameSite: 'Lax' }])
  // Every CSP violation of any frame is collected (the init script itself is exempt from the CSP).
  await context.addInitScript(() => {
    const w = window as unknown as { __violations: string[] }
    w.__violations = []
    document.addEventListener('securitypolicyviolation', (e) => w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`))
  })
  const page = await context.newPage()
  page.setDefaultTimeout(15_000)
  return { context, page }
}

/** The hostile agent UI: tries a whole-origin service worker and plants the attacker's portal session. */
function hostilePage(cookie: string) {
  return `<!doctype html><title>Evil agent</title><h1>Evil agent UI</h1><p id="sw">pending</p>
  <button id="escape" onclick="try { top.location = location.origin + '/escaped'; document.getElementById('escaped').textContent = 'tried' } catch (e) { document.getElementById('escaped').textContent = 'blocked: ' + e.name }">Escape</button><p id="escaped">no</p><script>
    document.cookie = 'pf_session=${cookie}; domain=localhost; path=/';
    navigator.serviceWorker.register('/sw.js', { scope: '/' })
      .then(() => { document.getElementById('sw').textContent = 'registered' })
      .catch((e) => { document.getElementById('sw').textContent = 'refused: ' + e.name });
  </script>`
}

async function openPortal(page: Page) {
  await page.goto(`/portal/${DEMO_ORG_ID}/${agentId}`)
  const frame = page.frameLocator('iframe[title="Web interface of Evil agent"]')
  await frame.getByRole('heading', { name: 'Evil agent UI' }).waitFor({ timeout: 45_000 })
  const src = (await page.locator('iframe').getAttribute('src'))!
  const db = await portalDb(portal)
  try {
    const session = await db.proxySession.findFirstOrThrow({ where: { hostLabel: new URL(src).hostname.split('.')[0] } })
    return { frame, src, origin: new URL(src).origin, sessionId: session.id }
  } finally {
    await db.$disconnect()
  }
}

const frameText = (page: Page) => page.frames()[1]?.locator('body').textContent()

async function reloadFrameUntil(page: Page, text: string) {
  for (let i = 0; i < 40; i++) {
    await page.frames()[1].evaluate(() => location.reload()).catch(() => undefined)
    await page.waitForTimeout(300)
    if ((await frameText(page).catch(() => ''))?.includes(text)) return
  }
  throw new Error(`the frame never showed "${text}": ${await frameText(page)}`)
}

beforeAll(async () => {
  base = `http://localhost:${portal.port}`
  attackerCookie = await storedSession(DEMO_USERS.viewer.email)
  evilUi = http.createServer((req, res) => {
    if (req.url === '/sw.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript', 'Service-Worker-Allowed': '/' })
      return res.end("self.addEventListener('fetch', () => undefined)")
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Set-Cookie': [`pf_session=${attackerCookie}; Domain=localhost; Path=/`, 'ui=1; Path=/'], 'Service-Worker-Allowed': '/' })
    res.end(hostilePage(attackerCookie))
  })
  await new Promise<void>((resolve) => evilUi.listen(0, '127.0.0.1', resolve))
  const secret = randomBytes(24).toString('base64url')
  const db = await portalDb(portal)
  try {
    const agent = await db.agent.create({
      data: { clientName: 'Evil agent', product: 'EvilBox', serial: 'EVIL-1', version: '1.0', secretHash: sha256(secret), organizationId: DEMO_ORG_ID, defaultProjectId: STAGE_LEFT, enrolledAt: new Date() },
    })
    agentId = agent.id
  } finally {
    await db.$disconnect()
  }
  tunnel = new TunnelClient({ relayUrl: `http://127.0.0.1:${portal.relayPort}`, agentId, secret, localPort: (evilUi.address() as AddressInfo).port })
  await tunnel.start()
})

afterAll(async () => {
  await tunnel?.close()
  evilUi?.close()
})

describe('relay isolation in Chromium', () => {
  it('refuses the agent page a service worker and lets it plant no portal cookie', async () => {
    const { context, page } = await signedInContext(DEMO_USERS.owner.email)
    const { frame, origin, sessionId } = await openPortal(page)
    // a per-session origin, never the portal's host name
    expect(origin).toMatch(new RegExp(`^http://[a-z2-7]{26}\\.localhost:${portal.relayPort}$`))
    // in the portal's frame (a third party here) and, below, as a first-party page, where the
    // browser itself would allow a worker: the relay refuses the worker script
    await expect.poll(() => frame.locator('#sw').textContent()).toMatch(/^refused/)
    expect(context.serviceWorkers()).toHaveLength(0)

    // the portal still knows the owner, not the attacker whose session the agent page tried to plant
    const portalCookies = (await context.cookies(base)).filter((c) => c.name === 'pf_session')
    expect(portalCookies).toHaveLength(1)
    expect(portalCookies[0].value).not.toBe(attackerCookie)
    await page.goto('/settings/profile')
    await expect(page.locator('body')).toBeDefined()
    expect(await page.locator('body').textContent()).toContain(DEMO_USERS.owner.email)
    expect(await page.locator('body').textContent()).not.toContain(DEMO_USERS.viewer.email)

    // first party: bind a top-level tab to the session with a known key (the browser would allow a worker here)
    const key = randomBytes(24).toString('base64url')
    const db = await portalDb(portal)
    try {
      await db.proxySession.update({ where: { id: sessionId }, data: { browserKeyHash: sha256(key) } })
    } finally {
      await db.$disconnect()
    }
    await context.addCookies([{ name: 'pf_relay', value: key, url: origin, httpOnly: true, secure: true, sameSite: 'Lax' }])
    const top = await context.newPage()
    // the relay holds a session's check for a few seconds, so the new key may take one refresh to count
    await expect
      .poll(
        async () => {
          await top.goto(`${origin}/`).catch(() => undefined)
          return top.getByRole('heading', { name: 'Evil agent UI' }).count()
        },
        { timeout: 45_000, interval: 1000 },
      )
      .toBe(1)
    await expect.poll(() => top.locator('#sw').textContent(), { timeout: 30_000 }).toMatch(/^refused/)
    expect(await top.evaluate(() => navigator.serviceWorker.getRegistrations().then((r) => r.length))).toBe(0)
    expect(context.serviceWorkers()).toHaveLength(0)
    await context.close()
  })

  it('keeps the portal tab when a click in the agent page sets top.location', async () => {
    const { context, page } = await signedInContext(DEMO_USERS.owner.email)
    const { frame } = await openPortal(page)
    const portalUrl = page.url()
    const sandbox = (await page.locator('iframe').getAttribute('sandbox'))!.split(' ')
    expect(sandbox).toEqual(expect.arrayContaining(['allow-scripts', 'allow-same-origin', 'allow-forms']))
    expect(sandbox.filter((flag) => flag.startsWith('allow-top-navigation') || flag === 'allow-popups-to-escape-sandbox')).toEqual([])
    const navigations: string[] = []
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) navigations.push(f.url())
    })
    await frame.locator('#escape').click()
    // the handler ran (the browser refused the navigation, by exception or silently)
    await expect.poll(() => frame.locator('#escaped').textContent(), { timeout: 15_000 }).not.toBe('no')
    // a refused navigation leaves no trace to wait for: give one that was started time to commit
    await page.waitForTimeout(2000)
    await page.getByText('Remote portal').first().waitFor()
    expect(navigations).toEqual([])
    expect(page.url()).toBe(portalUrl)
    await context.close()
  })

  it('makes the frame address useless in another browser and outside the portal', async () => {
    const { context, page } = await signedInContext(DEMO_USERS.owner.email)
    const { src, origin } = await openPortal(page)
    if (SHOTS) {
      await page.screenshot({ path: `${SHOTS}/portal-hostile-1440.png` })
      await page.setViewportSize({ width: 390, height: 844 })
      await page.waitForTimeout(300)
      await page.screenshot({ path: `${SHOTS}/portal-hostile-390.png` })
    }
    // the same browser, top level: the binding cookie is partitioned under the portal's site
    const direct = await context.newPage()
    await direct.goto(`${origin}/`)
    expect(await direct.locator('body').textContent()).toContain('belongs to another browser')

    // another browser (even one signed in as the same person) replaying the URL
    const other = await signedInContext(DEMO_USERS.owner.email)
    await other.page.goto(src)
    expect(await other.page.locator('body').textContent()).toContain('already used')
    await other.page.goto(`${origin}/`)
    expect(await other.page.locator('body').textContent()).toContain('belongs to another browser')
    await other.context.close()
    await context.close()
  })

  it('ends the session on portal sign-out and when it expires', async () => {
    const { context, page } = await signedInContext(DEMO_USERS.owner.email)
    const { sessionId } = await openPortal(page)
    // sign out in another tab of the same browser
    const tab = await context.newPage()
    await tab.goto('/')
    await tab.evaluate(() => fetch('/logout', { method: 'POST' }))
    await reloadFrameUntil(page, 'the user signed out')
    const db = await portalDb(portal)
    try {
      expect((await db.proxySession.findUniqueOrThrow({ where: { id: sessionId } })).closedReason).toBe('signed-out')
      await context.close()

      const again = await signedInContext(DEMO_USERS.owner.email)
      const second = await openPortal(again.page)
      await db.proxySession.update({ where: { id: second.sessionId }, data: { expiresAt: new Date(Date.now() - 1000) } })
      await reloadFrameUntil(again.page, 'maximum duration')
      await again.context.close()
    } finally {
      await db.$disconnect()
    }
  })

  it('runs the main pages under the CSP without violations, with the security headers set', async () => {
    const anonymous = await signedInContext('')
    const login = await anonymous.page.goto('/login')
    const headers = login!.headers()
    expect(headers['content-security-policy']).toMatch(/script-src 'self' 'nonce-[\w+/=]+'/)
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(headers['content-security-policy']).toContain(`frame-src http://*.localhost:${portal.relayPort}`)
    expect(headers['x-content-type-options']).toBe('nosniff')
    expect(headers['referrer-policy']).toBe('same-origin')
    expect(headers['permissions-policy']).toContain('camera=()')
    expect(headers['x-frame-options']).toBe('DENY')
    expect(headers['strict-transport-security']).toBeUndefined()
    await anonymous.page.getByRole('button', { name: 'Login' }).waitFor()
    expect(await anonymous.page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toEqual([])
    await anonymous.context.close()

    const { context, page } = await signedInContext(DEMO_USERS.owner.email)
    const errors: string[] = []
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) errors.push(m.text())
    })
    const pages = [
      ['/organization/list', 'Organizations'],
      [`/organization/${DEMO_ORG_ID}/agents`, 'Agents'],
      [`/organization/${DEMO_ORG_ID}/agents/${agentId}`, 'Evil agent'],
      [`/organization/${DEMO_ORG_ID}/projects/${STAGE_LEFT}/overview`, 'Systems'],
    ]
    for (const [path, text] of pages) {
      await page.goto(path)
      await page.getByText(text).first().waitFor()
      // hydrated: React's client scripts (nonce) ran
      await page.waitForFunction(() => (window as unknown as { __remixContext?: unknown }).__remixContext !== undefined && document.querySelector('script[nonce]') !== null)
      expect(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations), path).toEqual([])
    }
    await openPortal(page)
    expect(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations), 'portal').toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })

  it('ends the session when the account is disabled', async () => {
    const { context, page } = await signedInContext(DEMO_USERS.owner.email)
    const { sessionId } = await openPortal(page)
    const db = await portalDb(portal)
    try {
      await db.user.update({ where: { email: DEMO_USERS.owner.email }, data: { disabled: true } })
      await reloadFrameUntil(page, 'has ended')
      expect((await db.proxySession.findUniqueOrThrow({ where: { id: sessionId } })).closedReason).toMatch(/user-disabled|signed-out/)
    } finally {
      await db.user.update({ where: { email: DEMO_USERS.owner.email }, data: { disabled: false } })
      await db.$disconnect()
      await context.close()
    }
  })
})
