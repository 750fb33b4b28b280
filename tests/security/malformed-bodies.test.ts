/**
 * Issue 10 item 8: a JSON, broken multipart or empty body sent to any route action is a 400-style
 * answer, never a 500. Route modules are discovered from app/routes (every module with an action),
 * so new actions are covered without touching this file.
 */
import fs from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { createSession } from '~/domain/auth/session.server'
import { commitSessionCookie } from '~/utils/auth.server'
import { prisma } from '~/utils/db.server'

const ROUTES_DIR = path.resolve(import.meta.dirname, '../../app/routes')

type Action = (args: { request: Request; params: Record<string, string>; context: object }) => Promise<unknown>

const statusOf = (outcome: unknown): number | undefined => {
  if (outcome instanceof Response) return outcome.status
  const init = (outcome as { init?: { status?: number } | null } | null)?.init
  if (outcome && typeof outcome === 'object' && 'data' in outcome && 'type' in outcome) return init?.status ?? 200
  return init?.status ?? (outcome as { status?: number } | null)?.status
}

const BODIES: { label: string; headers: Record<string, string>; body: string }[] = [
  { label: 'JSON', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ intent: 'create', name: 'x' }) },
  { label: 'broken multipart', headers: { 'content-type': 'multipart/form-data; boundary=----pf' }, body: '------pf\r\nContent-Disposition: form-data; name="intent"\r\n\r\nadd\r\n--broken' },
  { label: 'multipart without boundary', headers: { 'content-type': 'multipart/form-data' }, body: 'garbage' },
  { label: 'empty form', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' },
]

describe('malformed request bodies', () => {
  let cookie = ''
  let adminId = ''
  // logout ends the session it is sent with, so each request gets a fresh one
  const freshCookie = async () => {
    const session = await createSession(adminId, { ip: '10.0.0.1', userAgent: 'vitest' })
    return (await commitSessionCookie(session.token, session.expiresAt)).split(';')[0]!
  }
  let params: Record<string, string> = {}
  beforeAll(async () => {
    const admin = await prisma.user.create({ data: { email: 'admin@bodies.test', name: 'Admin', emailVerified: true, isAdmin: true } })
    const org = await prisma.organization.create({ data: { name: 'Bodies Org', ownerId: admin.id } })
    const project = await prisma.project.create({ data: { organizationId: org.id, name: 'Stage' } })
    const agent = await prisma.agent.create({ data: { clientName: 'Agent', secretHash: 'x', organizationId: org.id, product: 'P', serial: 'S' } })
    await prisma.$transaction(async (tx) => {
      await tx.accessRight.create({ data: { userId: admin.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: org.id } })
      await compileUserAcls(tx, admin.id)
    })
    adminId = admin.id
    cookie = await freshCookie()
    params = { organizationId: org.id, projectId: project.id, agentId: agent.id, applicationCode: 'ABCDEFGH', email: 'admin@bodies.test', code: 'x', '*': 'organization/list' }
  })

  it('answers every route action with 4xx, never 500, for JSON, broken multipart and empty bodies', async () => {
    const files = fs.readdirSync(ROUTES_DIR).filter((f) => /\.tsx?$/.test(f)).sort()
    const failures: string[] = []
    let checked = 0
    for (const file of files) {
      const mod = (await import(path.join(ROUTES_DIR, file))) as { action?: Action }
      if (!mod.action) continue
      checked++
      for (const body of BODIES) {
        for (const withCookie of [true, false]) {
          const request = new Request('http://portal.test/some/path', { method: 'POST', headers: { ...body.headers, ...(withCookie ? { cookie: await freshCookie() } : {}) }, body: body.body })
          let outcome: unknown
          try {
            outcome = await mod.action({ request, params, context: {} })
          } catch (thrown) {
            outcome = thrown
          }
          const status = statusOf(outcome)
          if (status === undefined || status >= 500) {
            failures.push(`${file} (${body.label}${withCookie ? '' : ', signed out'}) -> ${status ?? String(outcome).slice(0, 160)}`)
          }
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(10)
    expect(failures).toEqual([])
  })

  it('gives a clear 400 message to a JSON body sent to a form action', async () => {
    const { action } = await import('~/routes/_app.admin.site')
    const request = new Request('http://portal.test/admin/site', { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: '{"intent":"clear"}' })
    const thrown = await action({ request, params: {}, context: {} }).catch((e: unknown) => e)
    expect(statusOf(thrown)).toBe(400)
    expect((thrown as { data: { message: string } }).data.message).toMatch(/must be a form/)
    const empty = new Request('http://portal.test/admin/site', { method: 'POST', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: '' })
    const answer = await action({ request: empty, params: {}, context: {} }).catch((e: unknown) => e)
    expect(statusOf(answer)).toBe(400)
  })
})
