/**
 * Remix flushes the response after every chunk React streams; with compression each flush ended a
 * deflate block. server/coalesce-flush.ts merges the flushes of one event-loop turn: the page
 * arrives whole and compresses as one stream, and output written later still goes out at once.
 */
import http from 'node:http'
import { type AddressInfo } from 'node:net'
import zlib from 'node:zlib'
import compression from 'compression'
import express from 'express'
import { afterAll, describe, expect, it } from 'vitest'
import { coalesceFlush } from '../../server/coalesce-flush'

const CHUNKS = 300
const chunk = (i: number) => `<tr><td>row ${i}</td><td class="cell">value</td></tr>`
const servers: http.Server[] = []

async function serve(coalesce: boolean) {
  const app = express()
  app.use(compression())
  if (coalesce) app.use(coalesceFlush())
  app.get('/page', (_req, res) => {
    const target = res as express.Response & { flush: () => void }
    res.type('html')
    // what Remix's writeReadableStreamToWritable does with each chunk
    for (let i = 0; i < CHUNKS; i++) {
      res.write(chunk(i))
      target.flush()
    }
    res.end()
  })
  app.get('/late', (_req, res) => {
    const target = res as express.Response & { flush: () => void }
    res.type('html')
    res.write('first'.repeat(200))
    target.flush()
    setTimeout(() => res.end('last'), 300)
  })
  const server = app.listen(0, '127.0.0.1')
  servers.push(server)
  await new Promise((r) => server.once('listening', r))
  return (server.address() as AddressInfo).port
}

function get(port: number, path: string, onFirstData?: (ms: number) => void) {
  const started = Date.now()
  return new Promise<{ wire: number; body: string }>((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, headers: { 'accept-encoding': 'gzip' } }, (res) => {
      const chunks: Buffer[] = []
      const gunzip = zlib.createGunzip()
      const text: Buffer[] = []
      gunzip.on('data', (c: Buffer) => {
        if (!text.length) onFirstData?.(Date.now() - started)
        text.push(c)
      })
      res.on('data', (c: Buffer) => {
        chunks.push(c)
        gunzip.write(c)
      })
      res.on('end', () => gunzip.end())
      gunzip.on('end', () => resolve({ wire: Buffer.concat(chunks).length, body: Buffer.concat(text).toString() }))
      res.on('error', reject)
    }).on('error', reject)
  })
}

afterAll(() => {
  for (const s of servers) s.close()
})

describe('coalesced flushes', () => {
  it('a page written in one turn compresses as one stream, not one block per chunk', async () => {
    const [plain, merged] = await Promise.all([serve(false), serve(true)])
    const expected = Array.from({ length: CHUNKS }, (_, i) => chunk(i)).join('')
    const before = await get(plain, '/page')
    const after = await get(merged, '/page')
    expect(after.body).toBe(expected)
    expect(before.body).toBe(expected)
    // a sync flush per chunk costs at least its 4-byte marker and defeats cross-chunk matching
    expect(after.wire).toBeLessThan(before.wire / 2)
  })

  it('output written in a later turn is not held back until the end', async () => {
    const port = await serve(true)
    let firstMs = Infinity
    const { body } = await get(port, '/late', (ms) => (firstMs = ms))
    expect(body).toBe('first'.repeat(200) + 'last')
    expect(firstMs).toBeLessThan(250)
  })
})
