/**
 * Issue 28 (low): nothing shed load, so a burst queued without bound and the portal took 16 s to
 * answer again. server/load-shedding.ts bounds the work in flight and the queue; beyond them the
 * answer is an immediate 503 + Retry-After (JSON for the API), exempt paths always answer, a client
 * that gives up frees its place, and the portal answers normally as soon as the burst is gone.
 */
import http from 'node:http'
import { type AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, describe, expect, it } from 'vitest'
import { loadShedding, type LoadSheddingOptions } from '../../server/load-shedding'

const servers: http.Server[] = []
afterAll(() => servers.forEach((s) => s.close()))

async function until(condition: () => boolean, what: string) {
  for (let i = 0; i < 600 && !condition(); i++) await new Promise((r) => setTimeout(r, 50))
  if (!condition()) throw new Error(`timed out waiting for ${what}`)
}

/** A server whose /work requests each wait until the test releases them. */
async function serve(options: LoadSheddingOptions) {
  const waiting: (() => void)[] = []
  const shedding = loadShedding(options)
  const app = express()
  app.use(shedding)
  app.get('/healthz', (_req, res) => void res.send('ok'))
  app.all(['/work', '/client/v1/work'], (_req, res) => void waiting.push(() => res.send('done')))
  app.get('/fast', (_req, res) => void res.send('fast'))
  const server = http.createServer(app)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const get = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${base}${path}`, init)
    return { status: response.status, retryAfter: response.headers.get('retry-after'), type: response.headers.get('content-type') ?? '', body: await response.text() }
  }
  const releaseAll = () => waiting.splice(0).forEach((release) => release())
  return { get, waiting, releaseAll, stats: shedding.stats }
}

describe('load shedding', () => {
  it('works on a bounded number, queues a bounded number, and refuses the rest at once with 503 + Retry-After', async () => {
    const s = await serve({ maxInFlight: 2, maxQueued: 2, maxWaitMs: 120_000 })
    const burst = Array.from({ length: 4 }, () => s.get('/work'))
    await until(() => s.waiting.length === 2 && s.stats().queued === 2, 'two in flight and two queued')
    // beyond the queue: refused without waiting for the work in flight
    const page = await s.get('/work')
    expect(page).toMatchObject({ status: 503, retryAfter: '5' })
    expect(page.type).toMatch(/text\/html/)
    expect(page.body).toContain('The service is briefly unavailable')
    const api = await s.get('/client/v1/work', { method: 'POST' })
    expect(api).toMatchObject({ status: 503, retryAfter: '5' })
    expect(JSON.parse(api.body)).toMatchObject({ code: 'unavailable', message: expect.stringMatching(/briefly unavailable/) })
    // health checks are never queued
    expect(await s.get('/healthz')).toMatchObject({ status: 200, body: 'ok' })

    // the burst ends: queued requests are worked on, then the server answers normally
    for (let round = 0; round < 2; round++) {
      s.releaseAll()
      await until(() => s.waiting.length === 2 || s.stats().inFlight === 0, 'the queued requests to start')
    }
    s.releaseAll()
    expect((await Promise.all(burst)).map((r) => r.status)).toEqual([200, 200, 200, 200])
    expect(await s.get('/fast')).toMatchObject({ status: 200, body: 'fast' })
    expect(s.stats()).toEqual({ inFlight: 0, queued: 0, shed: 2 })
  })

  it('answers 503 to a request that waited longer than allowed, and drops one whose client gave up', async () => {
    const s = await serve({ maxInFlight: 1, maxQueued: 5, maxWaitMs: 100 })
    const first = s.get('/work')
    await until(() => s.waiting.length === 1, 'the first request in flight')
    expect(await s.get('/fast')).toMatchObject({ status: 503, retryAfter: '5' })
    s.releaseAll()
    expect((await first).status).toBe(200)

    const patient = await serve({ maxInFlight: 1, maxQueued: 5, maxWaitMs: 120_000 })
    const busy = patient.get('/work')
    await until(() => patient.waiting.length === 1, 'the first request in flight')
    const gaveUp = new AbortController()
    const abandoned = patient.get('/fast', { signal: gaveUp.signal }).catch((e: Error) => e.name)
    await until(() => patient.stats().queued === 1, 'the request to queue')
    gaveUp.abort()
    expect(await abandoned).toBe('AbortError')
    await until(() => patient.stats().queued === 0, 'the abandoned request to leave the queue')
    patient.releaseAll()
    expect((await busy).status).toBe(200)
    expect(await patient.get('/fast')).toMatchObject({ status: 200 })
    expect(patient.stats().shed).toBe(0)
  })

  it('is off with maxInFlight 0', async () => {
    const s = await serve({ maxInFlight: 0, maxQueued: 0, maxWaitMs: 10 })
    const many = Array.from({ length: 5 }, () => s.get('/work'))
    await until(() => s.waiting.length === 5, 'all five in flight')
    s.releaseAll()
    expect((await Promise.all(many)).map((r) => r.status)).toEqual([200, 200, 200, 200, 200])
  })
})
