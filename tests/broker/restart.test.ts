import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { agentRequestTopic } from '../../protocol'
import { getConfig } from '../../app/utils/env.server'
import { prisma } from '../../app/utils/db.server'
import { connectAgent, registerAgent } from './mqtt-helpers'

const root = path.resolve(import.meta.dirname, '../..')
const children: ChildProcess[] = []
afterAll(() => children.forEach((c) => c.kill('SIGKILL')))

/** Starts the broker as a separate process on this test file's database. */
async function startBrokerProcess(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'broker/standalone.ts'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: getConfig().DATABASE_URL, MQTT_PORT: '0', LOG_LEVEL: 'silent', NODE_ENV: 'test' },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.push(child)
  const port = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const match = /MQTT_PORT=(\d+)/.exec(out)
      if (match) resolve(match[1])
    })
    child.once('exit', (code) => reject(new Error(`broker process exited with ${code}`)))
  })
  return { url: `mqtt://127.0.0.1:${port}`, child }
}

test('every acknowledged message survives the server being killed and restarted', async () => {
  const first = await startBrokerProcess()
  const registered = await registerAgent(first.url)
  const agent = await connectAgent(first.url, registered)
  const N = 300
  // All in flight at once; each publishAsync resolves on its PUBACK.
  await Promise.all(
    Array.from({ length: N }, (_, i) =>
      agent.client.publishAsync(agentRequestTopic(agent.agentId, 'updateClientState'), JSON.stringify({ systems: [{ id: `sys-${i}`, name: `System ${i}` }] }), { qos: 1 }),
    ),
  )
  // No graceful shutdown: the process dies right after the last acknowledgement.
  const exited = new Promise((resolve) => first.child.once('exit', resolve))
  first.child.kill('SIGKILL')
  await exited
  await agent.client.endAsync(true)

  const second = await startBrokerProcess()
  expect(await prisma.system.count({ where: { agentId: registered.agentId } })).toBe(N)
  // The agent carries on against the restarted server with the same credentials.
  const again = await connectAgent(second.url, registered)
  expect(await again.call('ping', { metrics: { dataSegsOut: 10, dsackDups: 0, totalRetrans: 0 } })).toMatchObject({ ok: true })
  // summed over rows: a run across the top of an hour counts in two
  const usage = await prisma.usageCounter.aggregate({ where: { agentId: registered.agentId, call: 'updateClientState' }, _sum: { count: true } })
  expect(usage._sum.count).toBe(N)
})
