// The packed hand-off between the broker thread and the ingest worker (ingest/handoff.ts): every
// request arrives as it was made and in order, across turns and buffer growth; responses likewise.
import { describe, expect, it } from 'vitest'
import { RequestPacker, ResponsePacker, unpackRequests, unpackResponses, type PackedRaw } from '../../ingest/handoff'

type Other = { id: number; kind: string }

function unpack(turn: ReturnType<RequestPacker<Other>['take']>) {
  const seen: (PackedRaw | Other)[] = []
  // transferred in production: the receiver gets the ArrayBuffer itself
  unpackRequests(turn.packed, turn.bytes, turn.objects, (raw) => seen.push({ ...raw, payload: Buffer.from(raw.payload) }), (other) => seen.push(other))
  return seen
}

describe('RequestPacker', () => {
  it('hands over raw requests and objects in the order they were made', () => {
    const packer = new RequestPacker<Other>()
    const at = new Date('2026-11-27T14:00:00.123Z')
    packer.raw(1, 'updateClientState', 'agent-1', '10.0.0.1', at, Buffer.from('{"systems":[]}'))
    packer.object({ id: 2, kind: 'presence' })
    packer.raw(2 ** 40, 'ping', 'agent-ünï-☃', null, at, new Uint8Array(0))
    packer.raw(4, 'getClientConfig', '', '::1', at, Buffer.from('{}'))
    expect(packer.count).toBe(4)
    const seen = unpack(packer.take())
    expect(seen).toEqual([
      { id: 1, call: 'updateClientState', agentId: 'agent-1', ip: '10.0.0.1', receivedAt: at, payload: Buffer.from('{"systems":[]}') },
      { id: 2, kind: 'presence' },
      { id: 2 ** 40, call: 'ping', agentId: 'agent-ünï-☃', ip: null, receivedAt: at, payload: Buffer.alloc(0) },
      { id: 4, call: 'getClientConfig', agentId: '', ip: '::1', receivedAt: at, payload: Buffer.from('{}') },
    ])
    expect(packer.count).toBe(0)
  })

  it('grows past its buffer within a turn and starts each turn empty', () => {
    const packer = new RequestPacker<Other>()
    const big = Buffer.alloc(50_000, 7)
    for (let turn = 0; turn < 3; turn++) {
      for (let i = 0; i < 10; i++) packer.raw(turn * 10 + i, 'updateClientState', `a${i}`, '127.0.0.1', new Date(i), i % 2 ? big : Buffer.from(`${i}`))
      const seen = unpack(packer.take()) as PackedRaw[]
      expect(seen.map((r) => r.id)).toEqual(Array.from({ length: 10 }, (_, i) => turn * 10 + i))
      expect(seen.map((r) => r.payload.byteLength)).toEqual(Array.from({ length: 10 }, (_, i) => (i % 2 ? big.length : 1)))
      expect(Buffer.compare(Buffer.from(seen[1].payload), big)).toBe(0)
    }
  })

  it('refuses an agent id longer than a record can hold, and packs nothing of it', () => {
    const packer = new RequestPacker<Other>()
    expect(() => packer.raw(1, 'ping', 'x'.repeat(30_000), null, new Date(), Buffer.from('{}'))).toThrow(/too long/)
    expect(packer.count).toBe(0)
    expect(unpack(packer.take())).toEqual([])
  })
})

describe('ResponsePacker', () => {
  it('hands over ids and response texts, empty texts and unicode included', () => {
    const packer = new ResponsePacker()
    expect(packer.take()).toBeNull()
    const texts = [JSON.stringify({ requestId: 'a\nb', ok: true }), '', JSON.stringify({ text: 'ü\u2028☃' }), '{}']
    texts.forEach((text, i) => packer.add(i + 1, text))
    const seen: [number, string][] = []
    unpackResponses(packer.take()!, (id, text) => seen.push([id, text]))
    expect(seen).toEqual(texts.map((text, i) => [i + 1, text]))
    expect(packer.take()).toBeNull()
  })
})
