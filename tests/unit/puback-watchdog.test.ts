/**
 * The reference agent's guard against a broker that never answers a QoS 1 publish
 * (simulator/puback-watchdog.ts): overdue detection on a clock the test sets by hand, so nothing
 * here waits for or races a real timer (`checkEveryMs: 0`: the test calls `check` itself).
 */
import { EventEmitter } from 'node:events'
import { type MqttClient } from 'mqtt'
import { describe, expect, it, vi } from 'vitest'
import { OverduePubacks, watchPubacks } from '../../simulator/puback-watchdog'

describe('OverduePubacks', () => {
  it('is overdue once the oldest waiting publish reaches the timeout, and no sooner', () => {
    const pubacks = new OverduePubacks(30_000)
    pubacks.sent(1, 1000)
    pubacks.sent(2, 5000)
    expect(pubacks.overdue(30_999)).toBeNull()
    expect(pubacks.overdue(31_000)).toEqual({ count: 2, since: 1000 })
    pubacks.acknowledged(1)
    expect(pubacks.overdue(31_000)).toBeNull()
    expect(pubacks.overdue(35_000)).toEqual({ count: 1, since: 5000 })
  })

  it('keeps the first time of a resent publish and forgets everything when the connection is lost', () => {
    const pubacks = new OverduePubacks(10_000)
    pubacks.sent(7, 0)
    pubacks.sent(7, 8000)
    expect(pubacks.overdue(10_000)).toEqual({ count: 1, since: 0 })
    pubacks.connectionLost()
    expect(pubacks.size).toBe(0)
    // the resend after the reconnect starts the wait again
    pubacks.sent(7, 12_000)
    expect(pubacks.overdue(21_999)).toBeNull()
    expect(pubacks.overdue(22_000)).toEqual({ count: 1, since: 12_000 })
  })
})

describe('watchPubacks', () => {
  function fakeClient() {
    const client = new EventEmitter() as EventEmitter & { connected: boolean; stream: { destroy: () => void } }
    client.connected = true
    client.stream = { destroy: vi.fn(() => client.emit('close')) }
    return client
  }

  it('drops the connection when a PUBACK is overdue, logs once per episode, and not while PUBACKs come in time', () => {
    let clock = 0
    const client = fakeClient()
    const log = vi.fn()
    const watchdog = watchPubacks(client as unknown as MqttClient, { timeoutMs: 30_000, checkEveryMs: 0, now: () => clock, log })
    client.emit('packetsend', { cmd: 'publish', qos: 1, messageId: 1 })
    client.emit('packetsend', { cmd: 'publish', qos: 0 })
    clock = 20_000
    client.emit('packetreceive', { cmd: 'puback', messageId: 1 })
    client.emit('packetsend', { cmd: 'publish', qos: 1, messageId: 2 })
    clock = 49_999
    expect(watchdog.check()).toBe(false)
    clock = 50_000
    expect(watchdog.check()).toBe(true)
    expect(client.stream.destroy).toHaveBeenCalledTimes(1)
    expect(log).toHaveBeenCalledTimes(1)
    expect(log.mock.calls[0][0]).toMatch(/1 QoS 1 publish\(es\) without PUBACK for 30 s/)

    // the resend after the reconnect gets no PUBACK either: dropped again, not logged again
    client.emit('packetsend', { cmd: 'publish', qos: 1, messageId: 2, dup: true })
    clock = 80_000
    expect(watchdog.check()).toBe(true)
    expect(watchdog.reconnects).toBe(2)
    expect(log).toHaveBeenCalledTimes(1)

    // acknowledged at last: the episode ends; the next one is logged again
    client.emit('packetsend', { cmd: 'publish', qos: 1, messageId: 2, dup: true })
    client.emit('packetreceive', { cmd: 'puback', messageId: 2 })
    client.emit('packetsend', { cmd: 'publish', qos: 1, messageId: 3 })
    clock = 110_000
    expect(watchdog.check()).toBe(true)
    expect(log).toHaveBeenCalledTimes(2)
    watchdog.stop()
  })

  it('leaves a disconnected client alone (mqtt.js is reconnecting already)', () => {
    let clock = 0
    const client = fakeClient()
    const watchdog = watchPubacks(client as unknown as MqttClient, { timeoutMs: 1000, checkEveryMs: 0, now: () => clock })
    client.emit('packetsend', { cmd: 'publish', qos: 1, messageId: 1 })
    client.connected = false
    clock = 5000
    expect(watchdog.check()).toBe(false)
    expect(client.stream.destroy).not.toHaveBeenCalled()
    watchdog.stop()
    expect(client.listenerCount('packetsend')).toBe(0)
  })
})
