/**
 * Issue 28 (low): OIDC sign-in accepted an ID token signed with a key the issuer does not publish.
 * A fake provider (msw) publishes key A; its token endpoint signs with key A, or with unknown key B
 * under A's key id, or not at all (alg none). Only A's tokens sign anyone in.
 */
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { finishOidcSignIn, startOidcSignIn } from '~/domain/auth/oidc.server'
import { prisma } from '~/utils/db.server'
import { getConfig, setConfig } from '~/utils/env.server'

const ISSUER = 'https://id.signature.test'
const CLIENT_ID = 'pixelfleet-signature-test'
const published = generateKeyPairSync('rsa', { modulusLength: 2048 })
const unknown = generateKeyPairSync('rsa', { modulusLength: 2048 })
const jwk = { ...published.publicKey.export({ format: 'jwk' }), kid: 'published', alg: 'RS256', use: 'sig' }

type Signing = 'published' | 'unknown' | 'none'
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
function idToken(claims: Record<string, unknown>, signing: Signing) {
  const now = Math.floor(Date.now() / 1000)
  const payload = b64({ iss: ISSUER, aud: CLIENT_ID, iat: now, exp: now + 300, ...claims })
  if (signing === 'none') return `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`
  const body = `${b64({ alg: 'RS256', kid: 'published', typ: 'JWT' })}.${payload}`
  const key: KeyObject = signing === 'published' ? published.privateKey : unknown.privateKey
  return `${body}.${sign('sha256', Buffer.from(body), key).toString('base64url')}`
}

const grants = new Map<string, { challenge: string; nonce: string; sub: string; signing: Signing }>()

const server = setupServer(
  http.get(`${ISSUER}/.well-known/openid-configuration`, () =>
    HttpResponse.json({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/authorize`,
      token_endpoint: `${ISSUER}/token`,
      jwks_uri: `${ISSUER}/jwks`,
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      code_challenge_methods_supported: ['S256'],
    }),
  ),
  http.get(`${ISSUER}/jwks`, () => HttpResponse.json({ keys: [jwk] })),
  http.post(`${ISSUER}/token`, async ({ request }) => {
    const form = new URLSearchParams(await request.text())
    const grant = grants.get(form.get('code') ?? '')
    if (!grant || createHash('sha256').update(form.get('code_verifier') ?? '').digest('base64url') !== grant.challenge) return HttpResponse.json({ error: 'invalid_grant' }, { status: 400 })
    const claims = { sub: grant.sub, nonce: grant.nonce, email: `${grant.sub}@signature.test`, email_verified: true, name: grant.sub }
    return HttpResponse.json({ access_token: 'at', token_type: 'Bearer', expires_in: 3600, id_token: idToken(claims, grant.signing) })
  }),
)

beforeAll(() => {
  setConfig({ ...getConfig(), OIDC_ISSUER: ISSUER, OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: 'secret' })
  server.listen({ onUnhandledRequest: 'error' })
})
afterAll(() => server.close())

const info = { ip: '10.3.0.9', userAgent: 'vitest' }

async function signIn(sub: string, signing: Signing) {
  const started = await startOidcSignIn('/')
  const url = new URL(started.authorizationUrl)
  const code = `code-${grants.size + 1}`
  grants.set(code, { challenge: url.searchParams.get('code_challenge')!, nonce: url.searchParams.get('nonce')!, sub, signing })
  return finishOidcSignIn(`?code=${code}&state=${url.searchParams.get('state')}`, started.pending, info)
}

describe('OIDC ID token signature', () => {
  it('signs in with a token signed by a key the issuer publishes', async () => {
    const done = await signIn('good-signer', 'published')
    expect(done.session.token).toBeTruthy()
  })

  it.each(['unknown', 'none'] as const)('refuses a token signed with %s key, creating no account', async (signing) => {
    await expect(signIn(`forged-${signing}`, signing)).rejects.toMatchObject({ code: 'auth/oidc-failed', status: 401 })
    expect(await prisma.user.count({ where: { email: `forged-${signing}@signature.test` } })).toBe(0)
  })
})
