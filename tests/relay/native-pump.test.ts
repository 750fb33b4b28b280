/**
 * The relay's native byte pump (native/relay-pump.c through relay/native-pump.ts): it moves exactly
 * the bytes asked for and leaves what follows to Node, stops at once when cancelled, reports a
 * sender that ends early or a receiver that leaves, never closes the sockets Node holds, and leaks
 * no descriptor. `npm install` builds it; npm test requires it (scripts/build-native.mjs --require).
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import net, { type AddressInfo, type Socket } from 'node:net'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { choosePump, nativePump } from '../../relay/native-pump'
import { stopReads } from '../../relay/data-reads'

const sockets: Socket[] = []
const servers: net.Server[] = []

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve))
})

/** Two ends of one loopback TCP connection: [the connecting side, the accepted side]. */
async function connection(): Promise<[Socket, Socket]> {
  const server = net.createServer()
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve))
  const client = net.connect((server.address() as AddressInfo).port, '127.0.0.1')
  await new Promise((resolve) => client.once('connect', resolve))
  const pair: [Socket, Socket] = [client, await accepted]
  for (const socket of pair) socket.on('error', () => undefined)
  sockets.push(...pair)
  return pair
}

/**
 * The two connections a pump joins, as the relay's are: the agent `sender` writes to `from` (the
 * relay's data connection), the relay's `to` (its browser socket) writes to `receiver`.
 */
async function ends() {
  const [sender, from] = await connection()
  const [to, receiver] = await connection()
  return { sender, from, to, receiver }
}

const fdOf = (socket: Socket) => (socket as unknown as { _handle: { fd: number } })._handle.fd
/**
 * The process's descriptors open on the same socket as `socket`'s own: 1 while only Node holds it,
 * 2 while a pump holds its duplicate. Counted per socket, so descriptors the test runner opens and
 * closes meanwhile (it shares this process) do not count.
 */
function descriptorsOn(socket: Socket) {
  const target = fs.readlinkSync(`/proc/self/fd/${fdOf(socket)}`)
  return fs.readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`) === target
    } catch {
      return false // closed since it was listed
    }
  }).length
}

/** Node, not the pump, still writes on `to`: what it writes arrives at `receiver`. */
async function nodeStillWrites(to: Socket, receiver: Socket, text: string) {
  const arrived = receive(receiver, text.length)
  to.write(text)
  expect((await arrived).toString()).toBe(text)
}

/** Collects what arrives on `socket` until `bytes` have come (or it ends). */
function receive(socket: Socket, bytes: number) {
  const chunks: Buffer[] = []
  let got = 0
  return new Promise<Buffer>((resolve) => {
    const done = () => resolve(Buffer.concat(chunks))
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      got += chunk.length
      if (got >= bytes) done()
    })
    socket.once('end', done).once('close', done)
  })
}

type Outcome = { error: string | null; moved: number }

/**
 * Pumps `length` bytes from `from` (its reads stopped meanwhile, as the relay does) to `to`.
 * Resolves with the pump's report; `handle` is there for cancel().
 */
function pump(from: Socket, to: Socket, length: number) {
  const native = nativePump()!
  const restart = stopReads(from)
  let handle: ReturnType<typeof native.pump> | undefined
  const report = new Promise<Outcome>((resolve) => {
    handle = native.pump(fdOf(from), fdOf(to), length, (error, moved) => resolve({ error, moved }))
  })
  return { report, cancel: () => native.cancel(handle!), restart }
}

beforeAll(() => {
  // the module must be built: a test run without it would not test what production runs
  expect(choosePump('native')).toEqual({ mode: 'native' })
})

describe('native relay pump', () => {
  it('moves exactly the bytes asked for, in order, and leaves what follows for Node to read', async () => {
    const { sender, from, to, receiver } = await ends()
    const body = randomBytes(5 * 1024 * 1024 + 3)
    const next = Buffer.from('HTTP/1.1 200 OK\r\n\r\nthe next answer')
    const arrived = receive(receiver, body.length)
    const run = pump(from, to, body.length)
    sender.write(Buffer.concat([body, next]))
    expect(await run.report).toEqual({ error: null, moved: body.length })
    expect((await arrived).equals(body)).toBe(true)
    // Node reads the socket again from the first byte after the body
    const rest = receive(from, next.length)
    run.restart()
    expect((await rest).toString()).toBe(next.toString())
    // and both sockets are still Node's: it writes on the one the pump wrote to
    await nodeStillWrites(to, receiver, 'after')
  })

  it('stops when cancelled, leaving both sockets open to Node, and leaks no descriptor', async () => {
    const { sender, from, to, receiver } = await ends()
    const arrived = receive(receiver, 1000)
    const run = pump(from, to, 10 * 1024 * 1024)
    // the pump holds a duplicate of each socket while it runs
    expect([descriptorsOn(from), descriptorsOn(to)]).toEqual([2, 2])
    sender.write(Buffer.alloc(1000, 7))
    expect((await arrived).length).toBe(1000)
    run.cancel()
    expect(await run.report).toEqual({ error: 'cancelled', moved: 1000 })
    run.cancel() // after the report: nothing happens
    // its duplicates are closed before it reports; Node's own descriptors stay open
    expect([descriptorsOn(from), descriptorsOn(to)]).toEqual([1, 1])
    await nodeStillWrites(to, receiver, 'ok')
  })

  it('reports a sender that ends before the body does', async () => {
    const { sender, from, to, receiver } = await ends()
    const arrived = receive(receiver, 4096)
    const run = pump(from, to, 1024 * 1024)
    sender.end(Buffer.alloc(4096, 1))
    expect(await run.report).toEqual({ error: 'the sending side ended before the body did', moved: 4096 })
    expect((await arrived).length).toBe(4096)
  })

  it('reports a receiver that left', async () => {
    const { sender, from, to, receiver } = await ends()
    const run = pump(from, to, 64 * 1024 * 1024)
    receiver.destroy()
    // more than the socket buffers hold: a write fails once the reset has come back
    for (let i = 0; i < 64; i++) sender.write(Buffer.alloc(1024 * 1024))
    const { error, moved } = await run.report
    expect(error).toMatch(/Broken pipe|Connection reset/)
    expect(moved).toBeLessThan(64 * 1024 * 1024)
  })

  it('refuses wrong arguments with a clear error', () => {
    const native = nativePump()!
    const call = native.pump as unknown as (...args: unknown[]) => unknown
    expect(() => call(-1, 1, 10, () => undefined)).toThrow('pump: bad descriptor or length')
    expect(() => call(1, 2, 0, () => undefined)).toThrow('pump: bad descriptor or length')
    expect(() => call(1, 2, 10)).toThrow('pump(fromFd, toFd, length, callback)')
    expect(() => (native.cancel as unknown as (x: unknown) => void)({})).toThrow('cancel(handle) needs what pump() returned')
  })
})
