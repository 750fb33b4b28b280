// The few MQTT 3.1.1 packets the ingest benchmark needs, over plain sockets. mqtt.js costs tens of
// KB and several timers per client; the load generator shares the 2 cores with the broker and
// holds up to 20,000 connections, so it speaks the wire format directly: CONNECT, QoS 1 PUBLISH
// with precomputed payloads, and it reads only CONNACK and PUBACK (it subscribes to nothing).
import net from 'node:net'

function remainingLength(length: number): number[] {
  const bytes: number[] = []
  do {
    let byte = length % 128
    length = Math.floor(length / 128)
    if (length > 0) byte |= 0x80
    bytes.push(byte)
  } while (length > 0)
  return bytes
}

const utf8Field = (text: string) => {
  const bytes = Buffer.from(text, 'utf8')
  const length = Buffer.alloc(2)
  length.writeUInt16BE(bytes.length)
  return Buffer.concat([length, bytes])
}

/** CONNECT with clean session, username and password, keepalive off (the run is bounded anyway). */
function connectPacket(clientId: string, username: string, password: string): Buffer {
  const body = Buffer.concat([utf8Field('MQTT'), Buffer.from([4, 0xc2, 0, 0]), utf8Field(clientId), utf8Field(username), utf8Field(password)])
  return Buffer.concat([Buffer.from([0x10, ...remainingLength(body.length)]), body])
}

/** A QoS 1 PUBLISH split in a head that carries the packet id and the shared payload. */
export class PublishTemplate {
  private readonly head: Buffer
  constructor(
    topic: string,
    readonly payload: Buffer,
  ) {
    const topicField = utf8Field(topic)
    this.head = Buffer.concat([Buffer.from([0x32, ...remainingLength(topicField.length + 2 + payload.length)]), topicField, Buffer.alloc(2)])
  }
  /** A fresh head (a socket may still hold the previous one) with this packet id. */
  headWith(packetId: number): Buffer {
    const head = Buffer.from(this.head)
    head.writeUInt16BE(packetId, head.length - 2)
    return head
  }
}

export class WireClient {
  private buffer: Buffer = Buffer.alloc(0)
  private nextId = 0
  private readonly pending = new Map<number, () => void>()
  private constructor(private readonly socket: net.Socket) {}

  /** Connects and resolves after a successful CONNACK. */
  static connect(port: number, clientId: string, username: string, password: string, timeoutMs: number): Promise<WireClient> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ port, host: '127.0.0.1', noDelay: true })
      const client = new WireClient(socket)
      const timer = setTimeout(() => fail(new Error('CONNACK timeout')), timeoutMs)
      const fail = (error: Error) => {
        clearTimeout(timer)
        socket.destroy()
        reject(error)
      }
      socket.once('error', fail)
      socket.once('close', () => fail(new Error('connection closed')))
      socket.once('connect', () => socket.write(connectPacket(clientId, username, password)))
      client.onConnack = (returnCode) => {
        clearTimeout(timer)
        socket.removeAllListeners('error').removeAllListeners('close')
        socket.on('error', () => {})
        socket.on('close', () => client.failPending())
        if (returnCode === 0) resolve(client)
        else fail(new Error(`CONNACK return code ${returnCode}`))
      }
      socket.on('data', (chunk: Buffer) => client.read(chunk))
    })
  }

  private onConnack: (returnCode: number) => void = () => {}

  private read(chunk: Buffer) {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk
    for (;;) {
      if (this.buffer.length < 2) return
      let length = 0
      let multiplier = 1
      let offset = 1
      let byte: number
      do {
        if (offset >= this.buffer.length) return
        byte = this.buffer[offset++]
        length += (byte & 0x7f) * multiplier
        multiplier *= 128
      } while (byte & 0x80)
      if (this.buffer.length < offset + length) return
      const type = this.buffer[0] >> 4
      if (type === 2) this.onConnack(this.buffer[offset + 1])
      else if (type === 4) {
        const id = this.buffer.readUInt16BE(offset)
        const done = this.pending.get(id)
        this.pending.delete(id)
        done?.()
      }
      this.buffer = this.buffer.subarray(offset + length)
    }
  }

  private failPending() {
    this.pending.clear()
  }

  /** Publishes at QoS 1; resolves on its PUBACK (never, if the connection drops). */
  publish(template: PublishTemplate): Promise<void> {
    this.nextId = (this.nextId % 65535) + 1
    const id = this.nextId
    return new Promise((resolve) => {
      this.pending.set(id, resolve)
      this.socket.cork()
      this.socket.write(template.headWith(id))
      this.socket.write(template.payload)
      this.socket.uncork()
    })
  }

  /** DISCONNECT, so the broker records a clean close rather than a Last Will. */
  end() {
    this.socket.end(Buffer.from([0xe0, 0]))
  }

  get closed() {
    return this.socket.destroyed
  }
}
