/**
 * The embedded broker while its SQLite database cannot be written (another connection holds the
 * write lock; issue #24): every publish is held without its PUBACK and retried until the lock is
 * gone, the agent gets one "it will be retried" answer per message (not one per attempt), presence
 * changes made meanwhile are written afterwards, and every acknowledged message is stored.
 * SQLite only: the PostgreSQL run (test:scaleout) has no file to lock; tests/chaos covers it.
 */
import Database from 'better-sqlite3'
import { expect, test } from 'vitest'
import { agentRequestTopic, agentResponseTopic } from '../../protocol'
import { isPostgres, prisma } from '../../app/utils/db.server'
import { getConfig } from '../../app/utils/env.server'
import { connect, connectAgent, registerAgent, startTestBroker } from './mqtt-helpers'

const broker = startTestBroker()
const MESSAGES = 5
const sqliteFile = () => getConfig().DATABASE_URL.replace(/^file:/, '')
const onSqlite = !isPostgres()

test.skipIf(!onSqlite)('a locked database: publishes wait unacknowledged and are retried, answered once each, presence catches up, nothing acknowledged is lost', async () => {
  const pinger = await connectAgent(broker.url, await registerAgent(broker.url, 'Pinger'))
  const leaving = await connectAgent(broker.url, await registerAgent(broker.url, 'Leaving'))
  const arrivingAgent = await registerAgent(broker.url, 'Arriving')
  await expect.poll(() => prisma.agent.findUnique({ where: { id: leaving.agentId } }).then((a) => a?.online), { timeout: 30_000 }).toBe(true)

  const answers: { ok: boolean; requestId: string }[] = []
  pinger.client.on('message', (topic, payload) => {
    if (topic === agentResponseTopic(pinger.agentId, 'ping')) answers.push(JSON.parse(payload.toString()))
  })

  const locker = new Database(sqliteFile(), { timeout: 30_000 })
  locker.prepare('BEGIN EXCLUSIVE').run()
  let acknowledged = 0
  let arriving: Awaited<ReturnType<typeof connect>> | null = null
  try {
    const metrics = { dataSegsOut: 1, dsackDups: 0, totalRetrans: 0 }
    for (let i = 0; i < MESSAGES; i++) {
      void pinger.client.publishAsync(agentRequestTopic(pinger.agentId, 'ping'), JSON.stringify({ requestId: `locked-${i}`, metrics }), { qos: 1 }).then(() => acknowledged++)
    }
    // presence changes while the database is locked: one agent leaves, another arrives (reads still work in WAL mode)
    await leaving.client.endAsync()
    arriving = await connect(broker.url, { clientId: arrivingAgent.agentId, username: arrivingAgent.agentId, password: arrivingAgent.secret })

    await expect.poll(() => answers.length, { timeout: 120_000 }).toBe(MESSAGES)
    expect(answers.every((a) => !a.ok)).toBe(true)
    // let the broker retry a few times (each attempt waits out SQLite's busy timeout of 5 s)
    await new Promise((resolve) => setTimeout(resolve, 12_000))
    expect(answers).toHaveLength(MESSAGES)
    expect(acknowledged).toBe(0)
  } finally {
    locker.prepare('ROLLBACK').run()
    locker.close()
  }

  await expect.poll(() => acknowledged, { timeout: 120_000 }).toBe(MESSAGES)
  const stored = await prisma.usageCounter.aggregate({ where: { agentId: pinger.agentId, call: 'ping' }, _sum: { count: true } })
  expect(stored._sum.count).toBe(MESSAGES)
  // one failure answer and one success answer per message
  await expect.poll(() => answers.filter((a) => a.ok).length, { timeout: 30_000 }).toBe(MESSAGES)
  expect(answers.filter((a) => !a.ok)).toHaveLength(MESSAGES)
  // the outage was logged twice, not once per attempt, and the messages were tried more than once each
  expect(broker.warnings.filter((w) => w.startsWith('ingest: storing messages fails'))).toHaveLength(1)
  const recovered = broker.warnings.find((w) => w.startsWith('ingest: storing works again'))
  expect(Number(/\((\d+) failed attempts/.exec(recovered ?? '')?.[1])).toBeGreaterThan(MESSAGES)

  await expect.poll(() => prisma.agent.findUnique({ where: { id: leaving.agentId } }).then((a) => a?.online), { timeout: 60_000 }).toBe(false)
  await expect.poll(() => prisma.agent.findUnique({ where: { id: arrivingAgent.agentId } }).then((a) => a?.online), { timeout: 60_000 }).toBe(true)
  await arriving?.endAsync()
}, 400_000)
