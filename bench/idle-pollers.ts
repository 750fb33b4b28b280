// npm run bench:idle -- --pollers (or node --import tsx bench/idle-pollers.ts): what each periodic job of
// the server costs on the bench database with nothing to do, measured in this process: CPU ms per
// run (process.cpuUsage over `runs` runs after a warm-up) times its runs per second = its share of a
// core. bench/idle.ts measures the whole server; this says how much of that the jobs are. With
// nothing due a poller runs only at its safety-net interval (app/domain/jobs/poller.server.ts), and a
// run is the job plus its next-due query, as the poller does it.
import path from 'node:path'
import { loadConfig } from '../server/config'
import { setConfig } from '../app/utils/env.server'
import { disconnectDatabase, tuneDatabase } from '../app/utils/db.server'
import { benchDatabase, root } from './portal'

type Job = { name: string; intervalMs: number; run: () => Promise<unknown> }

export async function measurePollers(file: string, runs = 20) {
  setConfig(loadConfig({ ...process.env, DATABASE_URL: `file:${file}`, LOG_LEVEL: 'warn' }))
  await tuneDatabase()
  // imported after the configuration names the bench database (some modules read the client at import)
  const { flushNotifications, queueRepeats } = await import('../app/domain/notifications/delivery.server')
  const { nextFlushAt } = await import('../app/domain/notifications/flush.server')
  const { REPEAT_CHECK_MS } = await import('../app/domain/notifications/follow-ups.server')
  const { deliverDueChannelMessages, nextChannelAttemptAt, CHANNEL_SAFETY_NET_MS } = await import('../app/domain/notifications/channels/sender.server')
  const { deliverDueMail, nextMailAttemptAt } = await import('../app/domain/mail/mail.server')
  const { MAIL_SENDER_INTERVAL_MS } = await import('../app/domain/mail/mail-sender.server')
  const { sweepOfflineAgents, OFFLINE_SWEEP_MS } = await import('../app/domain/alarms/offline.server')
  const notifyBatchMs = loadConfig({ ...process.env, DATABASE_URL: `file:${file}` }).NOTIFY_BATCH_MS
  // the intervals and runs the server's pollers use (the start functions of each job)
  const jobs: Job[] = [
    { name: 'notification delivery', intervalMs: REPEAT_CHECK_MS, run: async () => [await queueRepeats(), await flushNotifications(), await nextFlushAt(notifyBatchMs)] },
    { name: 'channel sender', intervalMs: CHANNEL_SAFETY_NET_MS, run: async () => [await deliverDueChannelMessages(), await nextChannelAttemptAt()] },
    { name: 'mail sender', intervalMs: MAIL_SENDER_INTERVAL_MS, run: async () => [await deliverDueMail(), await nextMailAttemptAt()] },
    { name: 'offline sweep', intervalMs: OFFLINE_SWEEP_MS, run: () => sweepOfflineAgents() },
  ]
  const results: { name: string; intervalMs: number; cpuMsPerRun: number; cores: number }[] = []
  for (const job of jobs) {
    for (let i = 0; i < 3; i++) await job.run() // warm-up: JIT, prepared statements, first sweep's raises
    const before = process.cpuUsage()
    for (let i = 0; i < runs; i++) await job.run()
    const used = process.cpuUsage(before)
    const cpuMsPerRun = (used.user + used.system) / 1000 / runs
    results.push({ name: job.name, intervalMs: job.intervalMs, cpuMsPerRun, cores: cpuMsPerRun / job.intervalMs })
  }
  await disconnectDatabase()
  return results
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = await benchDatabase(undefined, true)
  console.log(`periodic jobs on ${path.relative(root, file)} (in this process, nothing due):`)
  let total = 0
  for (const r of await measurePollers(file)) {
    total += r.cores
    console.log(`  ${r.name.padEnd(30)} every ${String(r.intervalMs / 1000).padStart(4)} s: ${r.cpuMsPerRun.toFixed(2).padStart(7)} ms CPU per run = ${r.cores.toFixed(4)} core`)
  }
  console.log(`  ${'all four'.padEnd(30)} ${' '.repeat(14)}= ${total.toFixed(4)} core`)
}
