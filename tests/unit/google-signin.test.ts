import { createHash, generateKeyPairSync, sign } from 'node:crypto'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { finishOidcSignIn as finishGoogleSignIn, startOidcSignIn as startGoogleSignIn } from '~/domain/auth/oidc.server'
import { resolveToken } from '~/domain/auth/session.server'
import { prisma } from '~/utils/db.server'
import { getConfig, setConfig } from '~/utils/env.server'

const ISSUER = 'https://accounts.google.test'
const CLIENT_ID = 'pixelfleet-test-client'
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'test-key', alg: 'RS256', use: 'sig' }

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
function signIdToken(claims: Record<string, unknown>) {
  const now = Math.floor(Date.now() / 1000)
  const body = `${b64({ alg: 'RS256', kid: 'test-key', typ: 'JWT' })}.${b64({ iss: ISSUER, aud: CLIENT_ID, iat: now, exp: now + 300, ...claims })}`
  return `${body}.${sign('sha256', Buffer.from(body), privateKey).toString('base64url')}`
}

/** What the fake Google remembers about one authorization request, keyed by the code it hands out. */
const grants = new Map<string, { challenge: string; nonce: string; claims: Record<string, unknown> }>()

const server = setupServer(
  http.get(`${ISSUER}/.well-known/openid-configuration`, () =>
    HttpResponse.json({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/o/oauth2/v2/auth`,
      token_endpoint: `${ISSUER}/token`,
      jwks_uri: `${ISSUER}/certs`,
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      code_challenge_methods_supported: ['S256'],
    }),
  ),
  http.get(`${ISSUER}/certs`, () => HttpResponse.json({ keys: [jwk] })),
  http.post(`${ISSUER}/token`, async ({ request }) => {
    const form = new URLSearchParams(await request.text())
    const grant = grants.get(form.get('code') ?? '')
    const verifier = form.get('code_verifier') ?? ''
    const challenge = createHash('sha256').update(verifier).digest('base64url')
    if (!grant || challenge !== grant.challenge || form.get('client_id') !== CLIENT_ID) {
      return HttpResponse.json({ error: 'invalid_grant' }, { status: 400 })
    }
    return HttpResponse.json({ access_token: 'at', token_type: 'Bearer', expires_in: 3600, id_token: signIdToken({ nonce: grant.nonce, ...grant.claims }) })
  }),
)

beforeAll(() => {
  setConfig({ ...getConfig(), GOOGLE_ISSUER: ISSUER, GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_CLIENT_SECRET: 'secret' })
  server.listen({ onUnhandledRequest: 'error' })
})
afterAll(() => server.close())

/** Plays Google's part of the redirect: the user approves and comes back with a code. */
async function approve(authorizationUrl: string, claims: Record<string, unknown>) {
  const url = new URL(authorizationUrl)
  expect(url.origin + url.pathname).toBe(`${ISSUER}/o/oauth2/v2/auth`)
  expect(url.searchParams.get('code_challenge_method')).toBe('S256')
  expect(url.searchParams.get('redirect_uri')).toBe('http://portal.test/auth/google/callback')
  // the GOOGLE_* names keep Google's account chooser
  expect(url.searchParams.get('prompt')).toBe('select_account')
  const code = `code-${grants.size + 1}`
  grants.set(code, { challenge: url.searchParams.get('code_challenge')!, nonce: url.searchParams.get('nonce')!, claims })
  return `?code=${code}&state=${url.searchParams.get('state')}`
}

const info = { ip: '10.3.0.1', userAgent: 'vitest' }

describe('Google sign-in (OpenID Connect, authorization code + PKCE)', () => {
  it('creates a verified Google account on first sign-in and signs the same account in again', async () => {
    const claims = { sub: 'google-sub-1', email: 'Gina@Example.test', email_verified: true, name: 'Gina Google' }
    const first = await startGoogleSignIn('/organization/list')
    const done = await finishGoogleSignIn(await approve(first.authorizationUrl, claims), first.pending, info)
    expect(done.redirectTo).toBe('/organization/list')
    const identity = await resolveToken(done.session.token)
    expect(identity).toMatchObject({ status: 'ok', user: { email: 'gina@example.test', provider: 'google', emailVerified: true, name: 'Gina Google' } })
    expect(await prisma.loginEvent.count({ where: { userId: identity.status === 'ok' ? identity.user.id : '', method: 'google' } })).toBe(1)

    const second = await startGoogleSignIn('/')
    const again = await finishGoogleSignIn(await approve(second.authorizationUrl, claims), second.pending, info)
    expect((await resolveToken(again.session.token)).status).toBe('ok')
    expect(await prisma.user.count({ where: { email: 'gina@example.test' } })).toBe(1)
  })

  it('refuses a callback whose state does not match the one the browser started with', async () => {
    const started = await startGoogleSignIn('/')
    const search = await approve(started.authorizationUrl, { sub: 'google-sub-2', email: 'eve@example.test', email_verified: true })
    const forged = search.replace(/state=[^&]+/, 'state=forged')
    await expect(finishGoogleSignIn(forged, started.pending, info)).rejects.toMatchObject({
      code: 'auth/oidc-failed',
      message: expect.stringMatching(/state/i),
    })
    await expect(finishGoogleSignIn(search, null, info)).rejects.toMatchObject({ code: 'auth/oidc-expired' })
    expect(await prisma.user.count({ where: { email: 'eve@example.test' } })).toBe(0)
  })

  it('refuses an address Google has not verified and links a verified one to the existing account', async () => {
    const started = await startGoogleSignIn('/')
    const search = await approve(started.authorizationUrl, { sub: 'google-sub-3', email: 'unv@example.test', email_verified: false })
    await expect(finishGoogleSignIn(search, started.pending, info)).rejects.toMatchObject({ code: 'mvr-auth/unverified' })

    const existing = await prisma.user.create({ data: { email: 'pw@example.test', name: 'Pat', passwordHash: 'x', emailVerified: false } })
    const next = await startGoogleSignIn('/')
    const linked = await finishGoogleSignIn(await approve(next.authorizationUrl, { sub: 'google-sub-4', email: 'pw@example.test', email_verified: true }), next.pending, info)
    expect(await resolveToken(linked.session.token)).toMatchObject({ user: { id: existing.id, emailVerified: true, passwordHash: null, googleSubject: 'google-sub-4' } })
  })
})
