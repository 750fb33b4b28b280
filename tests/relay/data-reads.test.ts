/**
 * The relay's data connections read into buffers it keeps (relay/data-reads.ts): an upgraded
 * connection moved to such a socket loses no byte and keeps their order whether its reads are
 * copied out (Node's HTTP client parsing) or handed to a sink (a raw body), a buffer still being
 * written is never read into again, reads held for a sink still being set up wait uncopied and in
 * order, and the server still counts the connection until it closes.
 */
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import net, { type AddressInfo, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { hasOwnReads, holdReads, setReadSink, withOwnReads } from '../../relay/data-reads'
import { eventually } from './eventually'

const servers: http.Server[] = []
const sockets: Socket[] = []

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

/** A server whose upgraded connections go to `accept`, and a client connection already upgraded. */
async function upgraded(accept: (socket: Socket) => Socket) {
  const server = http.createServer()
  servers.push(server)
  server.on('upgrade', (_req, socket: Socket) => {
    socket.on('error', () => undefined)
    const taken = accept(socket)
    sockets.push(socket, taken)
    taken.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\n')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const client = net.connect((server.address() as AddressInfo).port, '127.0.0.1')
  sockets.push(client)
  client.write('GET / HTTP/1.1\r\nHost: x\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\n')
  await new Promise<void>((resolve) => client.once('data', () => resolve()))
  return { server, client }
}

describe('data connection reads into reused buffers', () => {
  it('keeps every byte in order from copied reads to a slow sink and back, and never reads into a buffer still being written', async () => {
    const sent = randomBytes(12 * 1024 * 1024)
    const got: Buffer[] = []
    let total = 0
    let overwritten = 0
    let moved: Socket | undefined
    const { client } = await upgraded((accepted) => {
      moved = withOwnReads(accepted)
      expect(moved).not.toBe(accepted)
      expect(hasOwnReads(moved)).toBe(true)
      const socket = moved
      const copied = (chunk: Buffer) => {
        got.push(chunk)
        total += chunk.length
        // from the first 2 MiB on, a sink that holds each buffer a little while, as a busy browser socket does
        if (total < 2 * 1024 * 1024) return
        socket.off('data', copied)
        setReadSink(socket, (bytes, written) => {
          const copy = Buffer.from(bytes)
          got.push(copy)
          total += bytes.length
          setTimeout(() => {
            if (!bytes.equals(copy)) overwritten++
            written()
          }, 2)
          // back to copies for the last 2 MiB
          if (total >= sent.length - 2 * 1024 * 1024) {
            setReadSink(socket, null)
            socket.on('data', (chunk: Buffer) => {
              got.push(chunk)
              total += chunk.length
            })
          }
          return true
        })
      }
      socket.on('data', copied)
      return socket
    })
    for (let at = 0; at < sent.length; at += 256 * 1024) client.write(sent.subarray(at, at + 256 * 1024))
    expect(await eventually(() => total >= sent.length, Boolean)).toBe(true)
    expect(Buffer.concat(got).equals(sent)).toBe(true)
    expect(overwritten).toBe(0)
    // both directions still work on the moved socket
    const echoed = new Promise<string>((resolve) => client.once('data', (chunk) => resolve(chunk.toString())))
    moved!.write('pong')
    expect(await echoed).toBe('pong')
    client.destroy()
  })

  it('keeps two connections apart when one is copied out and the other feeds a slow sink at the same time', async () => {
    const sent = [randomBytes(6 * 1024 * 1024), randomBytes(6 * 1024 * 1024)]
    const got: Buffer[][] = [[], []]
    const totals = [0, 0]
    const accepted: Socket[] = []
    const ends = await Promise.all(
      [0, 1].map((i) =>
        upgraded((socket) => {
          const moved = withOwnReads(socket)
          accepted[i] = moved
          if (i === 0) {
            moved.on('data', (chunk: Buffer) => {
              got[0].push(chunk)
              totals[0] += chunk.length
            })
          } else {
            // the bytes are taken when their write is done, as the browser's socket would: a buffer reused earlier would show
            setReadSink(moved, (bytes, written) => {
              setTimeout(() => {
                got[1].push(Buffer.from(bytes))
                totals[1] += bytes.length
                written()
              }, 1)
              return true
            })
            moved.resume()
          }
          return moved
        }),
      ),
    )
    for (let at = 0; at < sent[0].length; at += 128 * 1024) for (const i of [0, 1]) ends[i].client.write(sent[i].subarray(at, at + 128 * 1024))
    expect(await eventually(() => totals[0] >= sent[0].length && totals[1] >= sent[1].length, Boolean)).toBe(true)
    expect(Buffer.concat(got[0]).equals(sent[0])).toBe(true)
    expect(Buffer.concat(got[1]).equals(sent[1])).toBe(true)
  })

  it('holds the reads after a copied one for a sink set later: every byte in order, reading paused past 1 MiB meanwhile', async () => {
    const sent = randomBytes(8 * 1024 * 1024)
    const got: Buffer[] = []
    let total = 0
    let moved: Socket | undefined
    let held = false
    const { client } = await upgraded((accepted) => {
      moved = withOwnReads(accepted)
      const socket = moved
      const copied = (chunk: Buffer) => {
        got.push(chunk)
        total += chunk.length
        if (total < 1024 * 1024) return
        // as relay/raw-body.ts does when an answer's headers are parsed: hold from the next read on
        socket.off('data', copied)
        held = holdReads(socket)
      }
      socket.on('data', copied)
      return socket
    })
    for (let at = 0; at < sent.length; at += 256 * 1024) client.write(sent.subarray(at, at + 256 * 1024))
    expect(await eventually(() => held, Boolean)).toBe(true)
    // the sink comes later; meanwhile the socket stops reading after about 1 MiB held
    expect(await eventually(() => moved!.isPaused(), Boolean)).toBe(true)
    expect(total).toBeLessThan(sent.length)
    expect(moved!.bytesRead).toBeLessThan(sent.length)
    setReadSink(moved!, (bytes, written) => {
      got.push(Buffer.from(bytes))
      total += bytes.length
      written()
      return true
    })
    moved!.resume()
    expect(await eventually(() => total >= sent.length, Boolean)).toBe(true)
    expect(Buffer.concat(got).equals(sent)).toBe(true)
  })

  it('closes the connection when its sink ends with reads still held (bytes past the body)', async () => {
    let moved: Socket | undefined
    let held = false
    const { client } = await upgraded((accepted) => {
      moved = withOwnReads(accepted)
      moved.once('data', () => (held = holdReads(moved!)))
      return moved
    })
    client.write('head')
    expect(await eventually(() => held, Boolean)).toBe(true)
    // two held reads: the second is written once the first has been read
    const before = moved!.bytesRead
    client.write(randomBytes(64 * 1024))
    expect(await eventually(() => moved!.bytesRead >= before + 64 * 1024, Boolean)).toBe(true)
    client.write(randomBytes(64 * 1024))
    expect(await eventually(() => moved!.bytesRead >= before + 128 * 1024, Boolean)).toBe(true)
    const closed = new Promise((resolve) => moved!.once('close', resolve))
    let calls = 0
    // a body that ends with the first held read: the next one is past it
    setReadSink(moved!, (_bytes, written) => {
      calls++
      written()
      setReadSink(moved!, null)
      return true
    })
    await closed
    expect(calls).toBe(1)
  })

  it('lets the server count the connection until it closes, and close once it has', async () => {
    let moved: Socket | undefined
    const { server, client } = await upgraded((accepted) => (moved = withOwnReads(accepted)).resume())
    expect(await eventually(() => moved !== undefined, Boolean)).toBe(true)
    let closed = false
    server.close(() => (closed = true))
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(closed).toBe(false)
    const ended = new Promise((resolve) => moved!.once('close', resolve))
    client.end()
    await ended
    expect(await eventually(() => closed, Boolean)).toBe(true)
    servers.splice(servers.indexOf(server), 1)
  })

  it('keeps the accepted socket itself when bytes already wait in it', async () => {
    let kept: Socket | undefined
    let accepted: Socket | undefined
    await upgraded((socket) => {
      accepted = socket
      socket.unshift(Buffer.from('early'))
      kept = withOwnReads(socket)
      return kept
    })
    expect(await eventually(() => kept !== undefined, Boolean)).toBe(true)
    expect(kept).toBe(accepted)
    expect(hasOwnReads(kept!)).toBe(false)
  })
})
