/**
 * server/compress-response.ts compresses a page in one call instead of a zlib stream per response
 * (flushed per React chunk). What a browser sees must not change: the page arrives whole and
 * decompresses to the same bytes with a correct Content-Length, small or non-text bodies and HEAD
 * are left alone, an event stream is not held back, and a client without gzip gets brotli or nothing.
 */
import http from 'node:http'
import { type AddressInfo } from 'node:net'
import zlib from 'node:zlib'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compressResponses } from '../../server/compress-response'

const page = Array.from({ length: 300 }, (_, i) => `<tr><td>row ${i}</td><td class="cell">value</td></tr>`).join('')
let server: http.Server
let port = 0
let endEvents = () => {}

beforeAll(async () => {
  const app = express()
  app.use(compressResponses())
  app.get('/page', (_req, res) => {
    res.type('html')
    // what Remix's writeReadableStreamToWritable does: many writes, then end
    for (let i = 0; i < page.length; i += 500) res.write(page.slice(i, i + 500))
    res.end()
  })
  app.get('/small', (_req, res) => void res.type('html').send('<p>hi</p>'))
  app.get('/json', (_req, res) => void res.json({ rows: page }))
  app.get('/binary', (_req, res) => void res.type('application/octet-stream').send(Buffer.alloc(4096, 7)))
  app.get('/events', (_req, res) => {
    res.setHeader('Content-Type', 'text/event-stream')
    res.flushHeaders()
    res.write(`data: ${'x'.repeat(2000)}\n\n`)
    // The stream ends only once the client has the first event (or after a far fallback, when
    // something held it back): no race between two timers on a busy machine.
    const end = () => res.end('data: last\n\n')
    const fallback = setTimeout(end, 30_000)
    endEvents = () => (clearTimeout(fallback), end())
  })
  server = app.listen(0, '127.0.0.1')
  await new Promise((r) => server.once('listening', r))
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise((r) => server.close(r)))

type Got = { status: number; headers: http.IncomingHttpHeaders; wire: Buffer; firstChunk: Buffer | null }
function get(path: string, acceptEncoding: string | undefined, method = 'GET', onFirstData = () => {}) {
  return new Promise<Got>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => {
        chunks.push(c)
        if (chunks.length === 1) onFirstData()
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, wire: Buffer.concat(chunks), firstChunk: chunks[0] ?? null }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

describe('compressResponses', () => {
  it('sends a streamed page as one gzip body with its length, as browsers ask', async () => {
    const r = await get('/page', 'gzip, deflate, br, zstd')
    expect(r.status).toBe(200)
    expect(r.headers['content-encoding']).toBe('gzip')
    expect(r.headers['vary']).toMatch(/Accept-Encoding/i)
    expect(Number(r.headers['content-length'])).toBe(r.wire.length)
    expect(zlib.gunzipSync(r.wire).toString()).toBe(page)
    expect(r.wire.length).toBeLessThan(page.length / 5)
  })

  it('uses brotli for a client without gzip and nothing for one that takes no encoding', async () => {
    const br = await get('/json', 'br')
    expect(br.headers['content-encoding']).toBe('br')
    expect(JSON.parse(zlib.brotliDecompressSync(br.wire).toString())).toEqual({ rows: page })
    const plain = await get('/json', undefined)
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(JSON.parse(plain.wire.toString())).toEqual({ rows: page })
  })

  it('leaves small bodies, binary types and HEAD alone', async () => {
    const small = await get('/small', 'gzip')
    expect(small.headers['content-encoding']).toBeUndefined()
    expect(small.wire.toString()).toBe('<p>hi</p>')
    const binary = await get('/binary', 'gzip')
    expect(binary.headers['content-encoding']).toBeUndefined()
    expect(binary.wire.length).toBe(4096)
    const head = await get('/page', 'gzip', 'HEAD')
    expect(head.status).toBe(200)
    expect(head.wire.length).toBe(0)
  })

  it('does not hold back an event stream', async () => {
    const r = await get('/events', 'gzip', 'GET', () => endEvents())
    expect(r.headers['content-encoding']).toBeUndefined()
    expect(r.wire.toString()).toContain('data: last')
    // the first event arrived on its own, while the stream was still open
    expect(r.firstChunk?.toString()).toContain('data: xxx')
    expect(r.firstChunk?.toString()).not.toContain('data: last')
  })
})
