/**
 * Sign-in with a standards-compliant OpenID Connect provider: panva's oidc-provider, started here
 * on an ephemeral port (no network), driven through the portal's login page in Chromium. Its ID
 * token carries no e-mail (the claims are served by userinfo only), and it sends no forced prompt.
 */
import http from 'node:http'
import { type AddressInfo } from 'node:net'
import Provider from 'oidc-provider'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, newPage, portalDb, startPortal, type RunningPortal } from './harness'
import { type Browser } from 'playwright-core'

const CLIENT_ID = 'pixelfleet-e2e'
const CLIENT_SECRET = 'e2e-client-secret-0123456789'
const ACCOUNTS: Record<string, { email: string; name: string }> = {
  ada: { email: 'Ada@Acme.test', name: 'Ada Lovelace' },
}

let provider: http.Server
let portal: RunningPortal
let browser: Browser
let issuer = ''

/** A free port for the portal, known before it starts: the provider registers its redirect URI. */
async function freePort(): Promise<number> {
  const probe = http.createServer()
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r))
  const { port } = probe.address() as AddressInfo
  await new Promise((r) => probe.close(r))
  return port
}

beforeAll(async () => {
  const portalPort = await freePort()
  const portalUrl = `http://127.0.0.1:${portalPort}`
  provider = http.createServer()
  await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r))
  issuer = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`
  const oidc = new Provider(issuer, {
    clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [`${portalUrl}/auth/oidc/callback`], token_endpoint_auth_method: 'client_secret_post' }],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // the default: claims of scopes go to userinfo, not into the ID token, when an access token is issued
    conformIdTokenClaims: true,
    findAccount: (_ctx, id) => {
      const account = ACCOUNTS[id]
      return account ? { accountId: id, claims: () => ({ sub: id, email: account.email, email_verified: true, name: account.name }) } : undefined
    },
    cookies: { keys: ['e2e-cookie-key'] },
  })
  provider.on('request', oidc.callback())
  portal = await startPortal({
    PORT: String(portalPort),
    PUBLIC_URL: portalUrl,
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: CLIENT_ID,
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
    OIDC_BUTTON_LABEL: 'Sign in with Acme ID',
  })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await portal?.stop()
  await new Promise((r) => provider?.close(r))
})

describe('sign-in with any OpenID Connect provider', () => {
  it('signs in through the provider, reading the e-mail from userinfo, with no forced prompt', async () => {
    const { context, page } = await newPage(browser, portal.url)
    const authorizeRequests: URL[] = []
    page.on('request', (r) => {
      const url = new URL(r.url())
      if (url.origin === issuer && url.pathname === '/auth') authorizeRequests.push(url)
    })
    await page.goto('/login')
    await page.getByText('Use your email address and password, or single sign-on.').waitFor()
    await page.getByRole('link', { name: 'Sign in with Acme ID' }).click()

    await page.locator('input[name=login]').fill('ada')
    await page.locator('input[name=password]').fill('anything')
    await page.getByRole('button', { name: 'Sign-in' }).click()
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.waitForURL((url) => url.origin === portal.url && !url.pathname.startsWith('/login') && !url.pathname.startsWith('/auth/'))

    expect(authorizeRequests).toHaveLength(1)
    const params = authorizeRequests[0]!.searchParams
    expect(params.get('prompt')).toBeNull()
    expect(params.get('code_challenge_method')).toBe('S256')
    expect(params.get('state')).toBeTruthy()
    expect(params.get('nonce')).toBeTruthy()
    expect(params.get('redirect_uri')).toBe(`${portal.url}/auth/oidc/callback`)

    const db = await portalDb(portal)
    try {
      const user = await db.user.findUniqueOrThrow({ where: { email: 'ada@acme.test' } })
      expect(user).toMatchObject({ provider: 'oidc', emailVerified: true, name: 'Ada Lovelace', googleSubject: 'ada' })
      expect(await db.loginEvent.count({ where: { userId: user.id, method: 'oidc' } })).toBe(1)
    } finally {
      await db.$disconnect()
    }
    const who = await page.evaluate(async () => (await fetch('/client/v1/auth/authorized', { method: 'POST', body: '{}' })).json())
    expect(who).toMatchObject({ email: 'ada@acme.test' })
    await context.close()
  })

  it("shows a clear message when the provider refuses, and logs the provider's error text", async () => {
    const { context, page } = await newPage(browser, portal.url)
    await page.goto('/login')
    await page.getByRole('link', { name: 'Sign in with Acme ID' }).click()
    await page.getByRole('link', { name: '[ Cancel ]' }).click()
    await page.waitForURL((url) => url.origin === portal.url && url.pathname === '/login')
    await page.getByText('The sign-in was cancelled or refused at the identity provider.').waitFor()
    expect(new URL(page.url()).searchParams.get('reason')).toBe('access_denied')
    await expect.poll(() => portal.output()).toContain('access_denied: End-User aborted interaction')
    await context.close()
  })
})
