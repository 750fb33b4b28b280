/**
 * /metrics of a running portal: the token on the web port, the separate METRICS_PORT listener,
 * and Debian's Prometheus (apt-get install prometheus; .ci/run installs it) scraping it on its
 * own port and data directory, queried through its HTTP API.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startPortal, type RunningPortal } from '../e2e/harness'
import { freePort } from '../scaleout/services'

const PROMETHEUS = '/usr/bin/prometheus'
const TOKEN = 'metrics-test-token-0123456789'

const until = async <T>(what: string, probe: () => Promise<T | undefined>, limitMs = 120_000): Promise<T> => {
  const end = Date.now() + limitMs
  let last: unknown
  for (;;) {
    try {
      const value = await probe()
      if (value !== undefined) return value
    } catch (error) {
      last = error
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

let portal: RunningPortal
let metricsPort: number

beforeAll(async () => {
  // one simulated agent reports through the embedded broker: ingest counts come from its worker thread
  portal = await startPortal({ METRICS_TOKEN: TOKEN, METRICS_PORT: '0', METRICS_HOST: '127.0.0.1', SIMULATOR_AGENTS: '1' })
  metricsPort = Number(/metrics :(\d+)/.exec(portal.output())?.[1])
})
afterAll(async () => {
  await portal?.stop()
})

describe('/metrics', () => {
  it('needs the token on the web port and serves Prometheus text with it', async () => {
    const refused = await fetch(`${portal.url}/metrics`)
    expect(refused.status).toBe(401)
    expect(refused.headers.get('www-authenticate')).toBe('Bearer')
    expect((await fetch(`${portal.url}/metrics`, { headers: { authorization: 'Bearer wrong-token-0123456789x' } })).status).toBe(401)
    await fetch(`${portal.url}/healthz`)
    const served = await fetch(`${portal.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toContain('text/plain')
    const text = await served.text()
    for (const name of ['pixelfleet_http_request_duration_seconds_bucket', 'pixelfleet_ingest_messages_total', 'pixelfleet_agents_online', 'pixelfleet_relay_bytes_total', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
      expect(text).toContain(name)
    }
    expect(text).toMatch(/pixelfleet_http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} \d+/)
  })

  it('counts the messages the ingest worker thread stored and the agents connected', async () => {
    const sample = (text: string, series: string) => Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN)
    const text = await until('stored ingest messages in /metrics', async () => {
      const body = await (await fetch(`${portal.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text()
      return sample(body, 'pixelfleet_ingest_messages_total{outcome="stored"}') > 0 ? body : undefined
    })
    expect(sample(text, 'pixelfleet_mqtt_connected_agents')).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'pixelfleet_ingest_batch_duration_seconds_count')).toBeGreaterThan(0)
  })

  it('is also served on METRICS_PORT, which serves nothing else', async () => {
    expect(metricsPort).toBeGreaterThan(0)
    const served = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(served.status).toBe(200)
    expect((await fetch(`http://127.0.0.1:${metricsPort}/readyz`)).status).toBe(200)
    expect((await fetch(`http://127.0.0.1:${metricsPort}/login`)).status).toBe(404)
  })
})

describe.skipIf(!fs.existsSync(PROMETHEUS))('Prometheus', () => {
  let prometheus: ChildProcess | null = null
  let dir = ''
  let api = ''
  let log = ''

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixelfleet-prometheus-'))
    const port = await freePort()
    api = `http://127.0.0.1:${port}`
    const target = new URL(portal.url).host
    fs.writeFileSync(
      path.join(dir, 'prometheus.yml'),
      `global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n  - job_name: pixelfleet\n    metrics_path: /metrics\n    authorization:\n      type: Bearer\n      credentials: ${TOKEN}\n    static_configs:\n      - targets: ['${target}']\n`,
    )
    prometheus = spawn(PROMETHEUS, [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`], { stdio: ['ignore', 'pipe', 'pipe'] })
    prometheus.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()))
    prometheus.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()))
  })
  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null) {
      const exited = new Promise((resolve) => prometheus!.once('exit', resolve))
      prometheus.kill('SIGTERM')
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000))])
      if (prometheus.exitCode === null) prometheus.kill('SIGKILL')
    }
    fs.rmSync(dir, { recursive: true, force: true })
  })

  type Vector = { metric: Record<string, string>; value: [number, string] }[]
  const query = async (promql: string): Promise<Vector> => {
    const response = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(promql)}`)
    const body = (await response.json()) as { status: string; data: { result: Vector } }
    if (body.status !== 'success') throw new Error(JSON.stringify(body))
    return body.data.result
  }

  it('scrapes the portal and answers queries about its metrics', async () => {
    for (let i = 0; i < 3; i++) await fetch(`${portal.url}/healthz`)
    const up = await until(`Prometheus to scrape the portal\n${log}`, async () => {
      const result = await query('up{job="pixelfleet"}')
      return result[0]?.value[1] === '1' ? result : undefined
    })
    expect(up[0].metric.instance).toBe(new URL(portal.url).host)
    const healthz = await until('the /healthz request count', async () => {
      const result = await query('sum(pixelfleet_http_request_duration_seconds_count{route="/healthz",status="200"})')
      return result.length && Number(result[0].value[1]) >= 3 ? result : undefined
    })
    expect(Number(healthz[0].value[1])).toBeGreaterThanOrEqual(3)
    const ingest = await query('pixelfleet_ingest_messages_total')
    expect(ingest.map((r) => r.metric.outcome).sort()).toEqual(['failed', 'stored'])
    expect(await query('nodejs_eventloop_lag_seconds')).toHaveLength(1)
  })
})
