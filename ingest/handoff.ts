/**
 * The broker thread's hand-off to the ingest worker and back, packed (worker.server.ts <->
 * thread.server.ts). A turn's raw requests travel as records in one transferred buffer instead of
 * one structured-clone object each (a request object with its meta, date and payload view cost
 * a serialization and a deserialization per message: ~5 % of the broker thread); the other
 * requests (presence, served calls, validated calls, drain) are rare and stay objects, their
 * places marked in the buffer so the worker sees every request in the order it was made.
 * Replies that are only a response text come back as their ids and the texts joined by newlines
 * (JSON.stringify never writes a raw newline); anything else (refusals, failures, errors) as objects.
 *
 * Record layout (little endian): u8 tag; for RAW: f64 id, u8 call, f64 receivedAt (ms),
 * u16 agent id bytes, u16 ip bytes (NO_IP = null), u32 payload bytes, then the three byte strings
 * (UTF-8); for OBJECT: u32 index into the message's `requests`.
 */
import { AGENT_CALLS, type AgentCall } from '../protocol'

const RAW = 1
const OBJECT = 2
const NO_IP = 0xffff
/** Fixed part of a raw record. */
const RAW_HEADER = 1 + 8 + 1 + 8 + 2 + 2 + 4
const OBJECT_RECORD = 1 + 4

const MIN_BYTES = 16 * 1024
/** A turn larger than this is not used to size the next turn's buffer (one burst would keep a huge buffer). */
const MAX_EXPECTED = 4 * 1024 * 1024

const callIndex = new Map<string, number>(AGENT_CALLS.map((call, i) => [call, i]))

export type PackedRaw = { id: number; call: AgentCall; agentId: string; ip: string | null; receivedAt: Date; payload: Uint8Array }

/** Main thread: collects one turn's requests; `take` hands over the buffer (to transfer) and resets. */
export class RequestPacker<T> {
  private buffer = Buffer.allocUnsafeSlow(MIN_BYTES)
  private used = 0
  private objects: T[] = []
  private records = 0
  private lastTurnBytes = MIN_BYTES

  get count() {
    return this.records
  }

  private reserve(bytes: number) {
    if (this.used + bytes <= this.buffer.length) return
    const grown = Buffer.allocUnsafeSlow(Math.max(this.buffer.length * 2, this.used + bytes))
    this.buffer.copy(grown, 0, 0, this.used)
    this.buffer = grown
  }

  /** A raw request: its payload (a view into the socket's read buffer) is copied in here. */
  raw(id: number, call: AgentCall, agentId: string, ip: string | null, receivedAt: Date, payload: Uint8Array) {
    // UTF-8 takes at most 3 bytes per UTF-16 unit; ids and addresses are short (the broker bounds client ids)
    const agentMax = agentId.length * 3
    const ipMax = ip === null ? 0 : ip.length * 3
    if (agentMax >= NO_IP || ipMax >= NO_IP) throw new Error('agent id or address too long for the ingest hand-off')
    this.reserve(RAW_HEADER + agentMax + ipMax + payload.byteLength)
    const b = this.buffer
    let at = this.used
    b[at] = RAW
    b.writeDoubleLE(id, at + 1)
    b[at + 9] = callIndex.get(call)!
    b.writeDoubleLE(receivedAt.getTime(), at + 10)
    const lengths = at + 18
    at += RAW_HEADER
    const agentBytes = b.write(agentId, at, 'utf8')
    at += agentBytes
    const ipBytes = ip === null ? NO_IP : b.write(ip, at, 'utf8')
    if (ip !== null) at += ipBytes
    b.set(payload, at)
    at += payload.byteLength
    b.writeUInt16LE(agentBytes, lengths)
    b.writeUInt16LE(ipBytes, lengths + 2)
    b.writeUInt32LE(payload.byteLength, lengths + 4)
    this.used = at
    this.records++
  }

  /** Any other request, sent as an object in its place. */
  object(request: T) {
    this.reserve(OBJECT_RECORD)
    this.buffer[this.used] = OBJECT
    this.buffer.writeUInt32LE(this.objects.length, this.used + 1)
    this.used += OBJECT_RECORD
    this.objects.push(request)
    this.records++
  }

  /**
   * The turn's records (`packed`, an ArrayBuffer to transfer: its first `bytes` hold them) and
   * objects; starts the next turn.
   */
  take(): { packed: ArrayBuffer; bytes: number; objects: T[] } {
    const { buffer, used, objects } = this
    // allocUnsafeSlow: the Buffer has an ArrayBuffer of its own (not a slice of the shared pool), so it can be transferred
    const packed = buffer.buffer
    if (used <= MAX_EXPECTED) this.lastTurnBytes = used
    // sized by this turn: one allocation per turn at a steady load, no growth on the way
    this.buffer = Buffer.allocUnsafeSlow(Math.max(MIN_BYTES, Math.ceil(this.lastTurnBytes * 1.25)))
    this.used = 0
    this.objects = []
    this.records = 0
    return { packed, bytes: used, objects }
  }
}

/** Worker thread: calls `raw` or `object` for each record, in order. */
export function unpackRequests<T>(packed: ArrayBuffer, bytes: number, objects: T[], raw: (request: PackedRaw) => void, object: (request: T) => void) {
  const b = Buffer.from(packed, 0, bytes)
  let at = 0
  while (at < bytes) {
    const tag = b[at]
    if (tag === OBJECT) {
      object(objects[b.readUInt32LE(at + 1)])
      at += OBJECT_RECORD
      continue
    }
    if (tag !== RAW) throw new Error(`ingest hand-off: unknown record ${tag} at ${at}`)
    const id = b.readDoubleLE(at + 1)
    const call = AGENT_CALLS[b[at + 9]]
    const receivedAt = new Date(b.readDoubleLE(at + 10))
    const agentBytes = b.readUInt16LE(at + 18)
    const ipBytes = b.readUInt16LE(at + 20)
    const payloadBytes = b.readUInt32LE(at + 22)
    at += RAW_HEADER
    const agentId = b.toString('utf8', at, at + agentBytes)
    at += agentBytes
    let ip: string | null = null
    if (ipBytes !== NO_IP) {
      ip = b.toString('utf8', at, at + ipBytes)
      at += ipBytes
    }
    // a view into the transferred buffer, as the payload arrived before
    const payload = new Uint8Array(packed, at, payloadBytes)
    at += payloadBytes
    raw({ id, call, agentId, ip, receivedAt, payload })
  }
}

/** Worker thread: replies that are only a response text, packed; `take` hands them over. */
export class ResponsePacker {
  private ids: number[] = []
  private texts: string[] = []

  get count() {
    return this.ids.length
  }

  add(id: number, response: string) {
    this.ids.push(id)
    this.texts.push(response)
  }

  take(): { ids: Float64Array; texts: string } | null {
    if (!this.ids.length) return null
    const ids = Float64Array.from(this.ids)
    const texts = this.texts.join('\n')
    this.ids = []
    this.texts = []
    return { ids, texts }
  }
}

/** Main thread: each packed reply's id and response text. */
export function unpackResponses(packed: { ids: Float64Array; texts: string }, each: (id: number, response: string) => void) {
  const { ids, texts } = packed
  let from = 0
  for (let i = 0; i < ids.length; i++) {
    const end = i === ids.length - 1 ? texts.length : texts.indexOf('\n', from)
    each(ids[i], texts.slice(from, end))
    from = end + 1
  }
}
