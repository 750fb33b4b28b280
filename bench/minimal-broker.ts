// The minimal pipeline `npm run bench:ingest -- --baseline` compares Pixelfleet's ingest with, as
// lean as a hand-written one: aedes on TCP, every CONNECT accepted, each QoS 1 payload parsed as
// JSON, and per batch (what arrived in one turn of the event loop, at most 500) one prepared
// multi-row INSERT of (agent, received at, systems reported) in one SQLite transaction; the PUBACK
// follows the commit (same durability contract and pragmas as the real broker). No validation, no
// ingest logic, no response: the ceiling of "aedes + JSON + SQLite" on this machine. The table is
// its own (created here), so the row it writes is as small as a row can usefully be.
// Prints `MQTT_PORT=<port>` once listening.
import net, { type AddressInfo } from 'node:net'
import { Aedes } from 'aedes'
import Database, { type Statement } from 'better-sqlite3'

const MAX_BATCH = 500
const file = (process.env.DATABASE_URL ?? '').replace(/^file:/, '')
const db = new Database(file)
db.pragma('journal_mode = WAL')
db.pragma('synchronous = NORMAL')
db.pragma('busy_timeout = 5000')
db.pragma('wal_autocheckpoint = 10000')
db.prepare(`CREATE TABLE IF NOT EXISTS "MinimalReport" ("agentId" TEXT NOT NULL, "receivedAt" TEXT NOT NULL, "systems" INTEGER NOT NULL)`).run()

/** One INSERT per batch size, prepared on first use. */
const inserts = new Map<number, Statement>()
function insertOf(rows: number): Statement {
  let statement = inserts.get(rows)
  if (!statement) {
    statement = db.prepare(`INSERT INTO "MinimalReport" ("agentId", "receivedAt", "systems") VALUES ${Array.from({ length: rows }, () => '(?, ?, ?)').join(', ')}`)
    inserts.set(rows, statement)
  }
  return statement
}

let agents: string[] = []
let payloads: Buffer[] = []
let callbacks: ((error: Error | null) => void)[] = []
let scheduled = false

function flush() {
  scheduled = false
  const count = Math.min(agents.length, MAX_BATCH)
  const now = new Date().toISOString()
  const values: unknown[] = []
  const done = callbacks.slice(0, count)
  for (let i = 0; i < count; i++) {
    const report = JSON.parse(payloads[i].toString('utf8')) as { systems?: unknown[] }
    values.push(agents[i], now, report.systems?.length ?? 0)
  }
  db.transaction(() => insertOf(count).run(values))()
  agents = agents.slice(count)
  payloads = payloads.slice(count)
  callbacks = callbacks.slice(count)
  for (const callback of done) callback(null)
  if (agents.length) schedule()
}
function schedule() {
  if (scheduled) return
  scheduled = true
  setImmediate(flush)
}

const broker = await Aedes.createBroker({ concurrency: 1000 })
broker.authenticate = (_client, _username, _password, done) => done(null, true)
broker.authorizePublish = (client, packet, done) => {
  agents.push(client?.id ?? '')
  payloads.push(packet.payload as Buffer)
  callbacks.push(done)
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
