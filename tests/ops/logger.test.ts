import { Writable } from 'node:stream'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { announce, componentLogger, configureLogging, flushRepeats, REPEAT_WINDOW_MS, withLogFields } from '../../app/utils/logger.server'

/** The log's lines, parsed, written to memory instead of stdout. */
function capture(level: 'debug' | 'info' | 'warn' | 'error' = 'info') {
  const lines: Record<string, unknown>[] = []
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>)
      done()
    },
  })
  configureLogging({ level, format: 'json', nodeId: 'node-a', destination })
  return lines
}

afterEach(() => {
  flushRepeats()
  vi.useRealTimers()
  configureLogging({ level: 'silent' })
})

describe('structured log', () => {
  it('writes JSON lines with time, level, node, component and the request id of the request being served', () => {
    const lines = capture()
    const log = componentLogger('broker')
    log.info('broker: nodes a, b; this node consumes ingest partitions 0, 2', { partitions: [0, 2] })
    withLogFields({ requestId: 'req-1' }, () => componentLogger('http').warn('GET /x answered 500', { status: 500 }))
    log.debug('not at info')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatchObject({ level: 'info', node: 'node-a', component: 'broker', partitions: [0, 2], msg: 'broker: nodes a, b; this node consumes ingest partitions 0, 2' })
    expect(new Date(String(lines[0].time)).toISOString()).toBe(lines[0].time)
    expect(lines[1]).toMatchObject({ level: 'warn', component: 'http', requestId: 'req-1', status: 500 })
  })

  it('summarises identical lines instead of repeating them', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const lines = capture()
    const log = componentLogger('broker')
    for (let i = 0; i < 1201; i++) log.warn('mqtt: connection : read ECONNRESET')
    log.warn('another line')
    expect(lines.map((l) => l.msg)).toEqual(['mqtt: connection : read ECONNRESET', 'another line'])
    vi.advanceTimersByTime(REPEAT_WINDOW_MS)
    const summary = lines.find((l) => l.repeated)
    expect(summary).toMatchObject({ level: 'warn', repeated: 1200, seconds: 60, msg: 'mqtt: connection : read ECONNRESET ... repeated 1,200 times in 60 s' })
    // once quiet, the next occurrence is written again
    vi.advanceTimersByTime(REPEAT_WINDOW_MS)
    log.warn('mqtt: connection : read ECONNRESET')
    expect(lines.at(-1)).toMatchObject({ msg: 'mqtt: connection : read ECONNRESET' })
    expect(lines.filter((l) => l.msg === 'another line')).toHaveLength(1)
  })
})

describe('announce', () => {
  it('writes the ready line even when LOG_LEVEL hides info', () => {
    const lines = capture('error')
    componentLogger('server').info('hidden')
    announce('server', 'Pixelfleet ready in 1.0 s: http://localhost:3000 (web :3000, MQTT :1883, relay :3001)')
    expect(lines).toMatchObject([{ level: 'info', component: 'server', msg: 'Pixelfleet ready in 1.0 s: http://localhost:3000 (web :3000, MQTT :1883, relay :3001)' }])
  })
})
