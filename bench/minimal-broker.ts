// The minimal pipeline `npm run bench:ingest -- --baseline` compares Pixelfleet's ingest with: aedes
// on TCP, every CONNECT accepted, and per QoS 1 publish one prepared UPDATE, batched per turn of
// the event loop in one SQLite transaction; the PUBACK follows the commit (same durability
// contract and pragmas as the real broker). No JSON parse, no validation, no ingest logic: the
// ceiling of "aedes + SQLite" on this machine. Prints `MQTT_PORT=<port>` once listening.
import net, { type AddressInfo } from 'node:net'
import { Aedes } from 'aedes'
import Database from 'better-sqlite3'

const file = (process.env.DATABASE_URL ?? '').replace(/^file:/, '')
const db = new Database(file)
db.pragma('journal_mode = WAL')
db.pragma('synchronous = NORMAL')
db.pragma('busy_timeout = 5000')
const touch = db.prepare(`UPDATE "Agent" SET "lastSeen" = ?, "updatedAt" = ? WHERE "id" = ?`)

type Pending = { agentId: string; done: (error: Error | null) => void }
let queue: Pending[] = []
let scheduled = false

const commit = db.transaction((jobs: Pending[], now: string) => {
  for (const job of jobs) touch.run(now, now, job.agentId)
})

function flush() {
  scheduled = false
  const jobs = queue.slice(0, 500)
  queue = queue.slice(jobs.length)
  commit(jobs, new Date().toISOString())
  for (const job of jobs) job.done(null)
  if (queue.length) schedule()
}
function schedule() {
  if (scheduled) return
  scheduled = true
  setImmediate(flush)
}

const broker = await Aedes.createBroker({ concurrency: 1000 })
broker.authenticate = (_client, _username, _password, done) => done(null, true)
broker.authorizePublish = (client, packet, done) => {
  queue.push({ agentId: client?.id ?? '', done })
  schedule()
}
const tcp = net.createServer((socket) => broker.handle(socket))
await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve))
console.log(`MQTT_PORT=${(tcp.address() as AddressInfo).port}`)

const stop = () => {
  broker.close(() => tcp.close(() => process.exit(0)))
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
