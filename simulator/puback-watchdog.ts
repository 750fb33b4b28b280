/**
 * A demanding MQTT 3.1.1 client's guard against a broker that takes a QoS 1 publish and never
 * answers it (docs/agent-protocol.md, "Overdue PUBACKs"). MQTT 3.1.1 resends an unacknowledged
 * publish only after a reconnect, so without a PUBACK the report waits until the connection drops
 * for another reason, which a healthy connection never does. When a PUBACK is overdue the client
 * drops its connection; mqtt.js reconnects and sends its unacknowledged publishes again.
 * RabbitMQ 3.10's MQTT plugin is such a broker: when the AMQP channel behind a connection is
 * closed (a refused topic check while the portal is unreachable) the connection lives on and its
 * publishes go nowhere (docs/decisions/068).
 */
import { type MqttClient } from 'mqtt'

export const DEFAULT_PUBACK_TIMEOUT_MS = 30_000

/** Which QoS 1 publishes wait for their PUBACK and since when; no timers of its own (the caller says what time it is). */
export class OverduePubacks {
  private readonly waiting = new Map<number, number>()

  constructor(private readonly timeoutMs: number) {}

  /** a QoS 1 PUBLISH went out (a resend of one still waiting keeps its first time) */
  sent(messageId: number, now: number) {
    if (!this.waiting.has(messageId)) this.waiting.set(messageId, now)
  }

  acknowledged(messageId: number) {
    this.waiting.delete(messageId)
  }

  /** The connection closed: what waited is resent after the reconnect, and measured from then. */
  connectionLost() {
    this.waiting.clear()
  }

  /** How many wait and since when (the oldest), when the oldest waited `timeoutMs` or longer; else null. */
  overdue(now: number): { count: number; since: number } | null {
    let since = Infinity
    for (const sentAt of this.waiting.values()) since = Math.min(since, sentAt)
    if (since === Infinity || now - since < this.timeoutMs) return null
    return { count: this.waiting.size, since }
  }

  get size() {
    return this.waiting.size
  }
}

export type PubackWatchdogOptions = {
  /** a PUBACK later than this drops the connection (default 30 s) */
  timeoutMs?: number
  /** one line per episode (until every waiting publish is acknowledged), not per reconnect */
  log?: (message: string) => void
  /** the clock (tests) */
  now?: () => number
  /** how often to look (default a fifth of the timeout, at most 5 s); 0: never by itself, the caller calls `check` */
  checkEveryMs?: number
}

/**
 * Watches `client`'s QoS 1 publishes through mqtt.js's packet events and drops the connection when
 * a PUBACK is overdue; `reconnects` counts those drops. `stop` ends the watch.
 */
export function watchPubacks(client: MqttClient, options: PubackWatchdogOptions = {}) {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PUBACK_TIMEOUT_MS
  const now = options.now ?? Date.now
  const tracker = new OverduePubacks(timeoutMs)
  let episode = false
  let reconnects = 0
  const onSend = (packet: { cmd: string; qos?: number; messageId?: number }) => {
    if (packet.cmd === 'publish' && packet.qos === 1 && packet.messageId !== undefined) tracker.sent(packet.messageId, now())
  }
  const onReceive = (packet: { cmd: string; messageId?: number }) => {
    if (packet.cmd !== 'puback' || packet.messageId === undefined) return
    tracker.acknowledged(packet.messageId)
    if (!tracker.size) episode = false
  }
  const onClose = () => tracker.connectionLost()
  client.on('packetsend', onSend)
  client.on('packetreceive', onReceive)
  client.on('close', onClose)
  const check = () => {
    const late = tracker.overdue(now())
    if (!late || !client.connected) return false
    if (!episode) {
      episode = true
      options.log?.(`mqtt: ${late.count} QoS 1 publish(es) without PUBACK for ${Math.round((now() - late.since) / 1000)} s; reconnecting so they are sent again`)
    }
    reconnects++
    // as a lost connection: mqtt.js reconnects after its reconnect period and resends what waits
    tracker.connectionLost()
    client.stream.destroy()
    return true
  }
  const every = options.checkEveryMs ?? Math.min(5000, Math.max(100, Math.floor(timeoutMs / 5)))
  const timer = every > 0 ? setInterval(check, every) : null
  timer?.unref()
  return {
    check,
    get reconnects() {
      return reconnects
    },
    stop() {
      if (timer) clearInterval(timer)
      client.off('packetsend', onSend)
      client.off('packetreceive', onReceive)
      client.off('close', onClose)
    },
  }
}
