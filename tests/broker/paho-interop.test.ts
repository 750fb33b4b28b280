/**
 * A second, independent MQTT client keeps the broker and docs/agent-protocol.md agreeing: an agent
 * written from the document with Eclipse Paho (Debian's python3-paho-mqtt) goes through register,
 * createApplication, ping and refused reports against the real broker on an ephemeral port.
 * Outside CI the test skips (with the reason printed) only when python3 or paho is missing; with
 * CI=true it always runs (.ci/run installs python3-paho-mqtt).
 */
import { spawn, spawnSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEFAULT_PROVISIONING_KEY } from '../../protocol'
import { prisma } from '~/utils/db.server'
import { startTestBroker } from './mqtt-helpers'

const script = path.join(import.meta.dirname, 'paho_agent.py')
// Debian's package installs into the system interpreter, which a pyenv/venv `python3` may shadow.
const python = ['/usr/bin/python3', 'python3'].find((bin) => spawnSync(bin, ['-c', 'import paho.mqtt.client'], { stdio: 'ignore' }).status === 0)
const inCi = process.env.CI === 'true'
if (!python && !inCi) console.warn('SKIPPED tests/broker/paho-interop.test.ts: python3 with paho-mqtt not found (apt-get install -y python3-paho-mqtt)')

const broker = startTestBroker()

// The script's JSON report: numbers (return codes, granted QoS), booleans and response objects.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an untyped report asserted field by field
type PahoReport = Record<string, any>

function runPaho(port: number): Promise<PahoReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(python ?? 'python3', [script, '127.0.0.1', String(port), DEFAULT_PROVISIONING_KEY], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.on('error', reject)
    child.on('exit', (code) => {
      clearTimeout(timer)
      if (code !== 0) return reject(new Error(`paho agent exited with ${code}:\n${stderr}\n${stdout}`))
      resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as PahoReport)
    })
  })
}

describe('an agent built with Eclipse Paho from docs/agent-protocol.md', () => {
  it.skipIf(!python && !inCi)('registers, creates an application, pings, and is refused outside its own topics', { timeout: 90_000 }, async () => {
    const out = await runPaho(broker.broker!.port)

    // Provisioning: the documented wildcard inside its own prefix is granted (QoS 1), anything outside is refused (0x80).
    expect(out.provisionConnect).toBe(0)
    expect(out.provisionWildcard).toBe(1)
    expect(out.provisionOtherClient).toBe(128)
    expect(out.provisionAll).toBe(128)
    expect(out.register).toMatchObject({ requestId: 'r1', ok: true, result: { agentId: expect.any(String), secret: expect.any(String) }, _puback: true })
    const agentId = out.register.result.agentId as string
    expect(await prisma.agent.findUnique({ where: { id: agentId }, select: { product: true, serial: true } })).toEqual({ product: 'PahoBox', serial: 'PAHO-1' })

    // As the agent: its own wildcard is granted, other agents' topics are not.
    expect(out.agentConnect).toBe(0)
    expect(out.agentWildcard).toBe(1)
    expect(out.agentOtherAgents).toBe(128)
    expect(out.createApplication).toMatchObject({ requestId: 'c1', ok: true, _puback: true })
    expect(out.createApplication.result.applicationCode).toMatch(/^[A-Z0-9]{3}-[A-Z0-9]{2}-[A-Z0-9]{3}$/)
    expect(out.ping).toMatchObject({ requestId: 'p1', ok: true, result: { lastSeen: expect.any(String), lastIp: '127.0.0.1' }, _puback: true })
    expect((await prisma.agent.findUniqueOrThrow({ where: { id: agentId } })).lastSeen).not.toBeNull()

    // Refused reports: an invalid payload gets an error response (and is acknowledged); another agent's topic closes the connection.
    expect(out.invalidReport).toMatchObject({ requestId: 'u1', ok: false, error: { code: 'invalid-payload' }, _puback: true })
    expect(out.otherTopicClosed).toBe(true)
    expect(out.otherTopicDisconnectRc).not.toBe(0)
    expect(broker.warnings.some((w) => w.includes(`agent ${agentId} may not publish to pf/v1/agents/not-me/req/updateClientState`))).toBe(true)
  })
})
