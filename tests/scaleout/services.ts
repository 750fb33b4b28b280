import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net, { type AddressInfo } from 'node:net'
import path from 'node:path'
import { processAlive } from '../../server/db-lock'

const root = path.resolve(import.meta.dirname, '../..')

export const rabbitmqInstalled = () => fs.existsSync('/usr/lib/rabbitmq/bin/rabbitmq-server') && fs.existsSync('/usr/sbin/nginx')

/** A port nobody listens on right now (the services below bind it a moment later). */
export async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

export type Rabbit = {
  mqttUrl: string
  amqpUrl: string
  pid: number
  ctl: (...args: string[]) => string
  /** the same without blocking this process (polls: each call boots an Erlang VM, seconds at load 20) */
  ctlAsync: (...args: string[]) => Promise<string>
  /** kill -9 */
  stop: () => void
  /** SIGTERM (RabbitMQ shuts down cleanly) and waits for the process to end */
  shutdown: () => Promise<void>
  /** starts the node again on the same ports and data (after stop or shutdown) */
  restart: () => Promise<void>
  /** the `[error]` lines of the node's log so far (a channel closed under an MQTT connection names its cause there) */
  errors: () => string[]
}

/** Runs a command without blocking this process's event loop (agents keep publishing meanwhile). */
function runAsync(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.once('exit', (code) => {
      clearTimeout(timer)
      if (code === 0) resolve(output)
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${output}`))
    })
  })
}

const processGone = async (pid: number, timeoutMs: number) => {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    if (!processAlive(pid)) return true
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return false
}

/** Our own RabbitMQ node in a temporary directory (scripts/ensure-rabbitmq.sh start), on free ports. */
export async function startRabbit(dir: string, portalAuthUrl: string): Promise<Rabbit> {
  const [amqp, mqtt, dist] = [await freePort(), await freePort(), await freePort()]
  const env = { ...process.env, RMQ_DIR: dir, RMQ_AMQP_PORT: String(amqp), RMQ_MQTT_PORT: String(mqtt), RMQ_DIST_PORT: String(dist), RMQ_USER: 'pixelfleet', RMQ_PASS: 'scaleout-pass', PORTAL_AUTH_URL: portalAuthUrl }
  // asynchronously: a minute of a blocked event loop at load 20 made vitest's worker RPC time out
  await runAsync('bash', [path.join(root, 'scripts/ensure-rabbitmq.sh'), 'start'], env, 150_000).catch((error: Error) => {
    throw new Error(`RabbitMQ did not start: ${error.message}`)
  })
  const ctlArgs = (args: string[]) => ['-q', '-n', `pixelfleet${amqp}@localhost`, ...args]
  const pidOf = () => Number(fs.readFileSync(path.join(dir, 'rabbitmq.pid'), 'utf8').trim())
  const rabbit: Rabbit = {
    mqttUrl: `mqtt://pixelfleet:scaleout-pass@127.0.0.1:${mqtt}`,
    amqpUrl: `amqp://pixelfleet:scaleout-pass@127.0.0.1:${amqp}`,
    pid: pidOf(),
    // rabbitmqctl against this node (its cookie is in $HOME): boots an Erlang VM, seconds of CPU
    ctl: (...args: string[]) => {
      const run = spawnSync('/usr/lib/rabbitmq/bin/rabbitmqctl', ctlArgs(args), { env: { ...process.env, HOME: dir }, encoding: 'utf8', timeout: 60_000 })
      if (run.status !== 0) throw new Error(`rabbitmqctl ${args.join(' ')}: ${run.stdout}${run.stderr}`)
      return run.stdout
    },
    ctlAsync: (...args: string[]) => runAsync('/usr/lib/rabbitmq/bin/rabbitmqctl', ctlArgs(args), { ...process.env, HOME: dir }, 120_000),
    stop: () => {
      // The node's pid file: a signal is instant where rabbitmqctl boots a VM first.
      const pidFile = path.join(dir, 'rabbitmq.pid')
      if (fs.existsSync(pidFile)) spawnSync('kill', ['-9', fs.readFileSync(pidFile, 'utf8').trim()])
    },
    shutdown: async () => {
      const pid = pidOf()
      process.kill(pid, 'SIGTERM')
      if (!(await processGone(pid, 60_000))) process.kill(pid, 'SIGKILL')
      await processGone(pid, 10_000)
    },
    restart: async () => {
      await runAsync('bash', [path.join(root, 'scripts/ensure-rabbitmq.sh'), 'start'], env, 150_000)
      rabbit.pid = pidOf()
    },
    errors: () => {
      const logDir = path.join(dir, 'log')
      const files = fs.existsSync(logDir) ? fs.readdirSync(logDir).filter((f) => f.endsWith('.log') && !f.includes('upgrade')) : []
      return files.flatMap((f) => fs.readFileSync(path.join(logDir, f), 'utf8').split('\n')).filter((line) => line.includes('[error]'))
    },
  }
  return rabbit
}

export type PostgresCluster = { url: string; port: number; stop: () => Promise<void>; start: () => Promise<void>; remove: () => Promise<void> }

/**
 * A PostgreSQL cluster of the test's own (initdb + pg_ctl as scripts/ensure-postgres.sh does, on a
 * free port), so stopping it disturbs no other test. `url` names the database `pixelfleet` of the
 * superuser `pixelfleet`. As root the server runs as the `postgres` system user.
 */
export async function startPostgresCluster(dir: string): Promise<PostgresCluster> {
  const bin = fs
    .readdirSync('/usr/lib/postgresql')
    .map((v) => `/usr/lib/postgresql/${v}/bin`)
    .filter((b) => fs.existsSync(`${b}/pg_ctl`))
    .sort()
    .at(-1)
  if (!bin) throw new Error('PostgreSQL is not installed (scripts/ensure-postgres.sh installs it)')
  const port = await freePort()
  const root = process.getuid?.() === 0
  fs.mkdirSync(dir, { recursive: true })
  if (root) spawnSync('chown', ['postgres', dir])
  const asOwner = (command: string, args: string[]) => (root ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args]) as [string, string[]]
  const data = path.join(dir, 'data')
  const init = spawnSync(...asOwner(`${bin}/initdb`, ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8']), { encoding: 'utf8', timeout: 120_000 })
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stdout}${init.stderr}`)
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`
  const start = async () => {
    await runAsync(...asOwner(`${bin}/pg_ctl`, ['-D', data, '-l', path.join(dir, 'server.log'), '-w', '-t', '120', '-o', options, 'start']), process.env, 150_000)
  }
  const stop = async () => {
    // fast: open connections are ended, new ones refused ("the database system is shutting down")
    await runAsync(...asOwner(`${bin}/pg_ctl`, ['-D', data, '-m', 'fast', '-w', '-t', '120', 'stop']), process.env, 150_000)
  }
  await start()
  const psql = spawnSync(`${bin}/psql`, ['-X', '-q', '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-c', "CREATE ROLE pixelfleet LOGIN SUPERUSER PASSWORD 'pixelfleet'", '-c', 'CREATE DATABASE pixelfleet OWNER pixelfleet'], { encoding: 'utf8', timeout: 60_000 })
  if (psql.status !== 0) throw new Error(`psql failed: ${psql.stdout}${psql.stderr}`)
  return {
    url: `postgresql://pixelfleet:pixelfleet@127.0.0.1:${port}/pixelfleet`,
    port,
    start,
    stop,
    remove: async () => {
      await stop().catch(() => undefined)
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** deploy/nginx/<name>.conf.template with its ${PF_*} placeholders filled in (as envsubst does). */
export function renderNginxTemplate(name: 'web' | 'relay', values: Record<string, string>): string {
  const template = fs.readFileSync(path.join(root, 'deploy/nginx', `${name}.conf.template`), 'utf8')
  return template.replace(/\$\{(PF_[A-Z_]+)\}/g, (_, key: string) => {
    if (values[key] === undefined) throw new Error(`deploy/nginx/${name}.conf.template needs ${key}`)
    return values[key]
  })
}

/**
 * Debian's nginx with deploy/nginx's configuration (one source of truth: the test fills in its
 * ports), its own prefix, pid and logs in `dir`. Test-only on top: a `pf_test_node=<index>` cookie
 * pins a browser to one node (sticky sessions, as balancers offer), so a test can say which node
 * answers a page and the requests it makes afterwards.
 */
export function startNginx(dir: string, port: number, upstreams: number[], relay?: { port: number; upstreams: number[] }): { stop: () => void; process: ChildProcess } {
  fs.mkdirSync(path.join(dir, 'logs'), { recursive: true })
  let web = renderNginxTemplate('web', {
    PF_LISTEN: `127.0.0.1:${port}`,
    PF_SERVER_NAME: '_',
    PF_WEB_SERVERS: upstreams.map((p) => `server 127.0.0.1:${p} max_fails=1 fail_timeout=3s;`).join('\n  '),
  })
  const pinned = 'proxy_pass http://$pf_test_pool;'
  web = web.replace('proxy_pass http://pixelfleet_web;', pinned)
  if (!web.includes(pinned)) throw new Error('deploy/nginx/web.conf.template: no `proxy_pass http://pixelfleet_web;` to pin')
  const sites = [
    `${upstreams.map((p, i) => `upstream node${i} { server 127.0.0.1:${p}; }`).join('\n')}`,
    `map $cookie_pf_test_node $pf_test_pool { ${upstreams.map((_, i) => `${i} node${i};`).join(' ')} default pixelfleet_web; }`,
    web,
    relay ? renderNginxTemplate('relay', { PF_RELAY_LISTEN: `127.0.0.1:${relay.port}`, PF_RELAY_SERVER_NAME: '_', PF_RELAY_SERVERS: relay.upstreams.map((p) => `server 127.0.0.1:${p};`).join('\n  ') }) : '',
  ]
  fs.writeFileSync(path.join(dir, 'sites.conf'), sites.join('\n'))
  const conf = `
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  include ${dir}/sites.conf;
}`
  fs.writeFileSync(path.join(dir, 'nginx.conf'), conf)
  const child = spawn('/usr/sbin/nginx', ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'logs/error.log'), '-g', 'daemon off;'], { stdio: 'ignore' })
  return { process: child, stop: () => child.kill('SIGTERM') }
}

export type Node = { url: string; pid: number; stop: () => Promise<void>; output: () => string; exited: Promise<number | null> }

/** A web node (`server/start.ts`, production build) outside vitest (the bench): resolves on its ready line. */
export async function startNode(env: Record<string, string>, nodeArgs: string[] = []): Promise<Node> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'server/start.ts'], {
    cwd: root,
    // (vitest's own variables would make the server think it runs under a test)
    env: { ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST'))), PIXELFLEET_SKIP_BUILD: '1', NODE_ENV: 'production', PORT: '0', RELAY_PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const port = await new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const m = output.match(/web :(\d+),/)
      if (m) resolve(Number(m[1]))
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`node exited with ${code}:\n${output}`)))
  })
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    output: () => output,
    exited,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))])
      if (child.exitCode === null) child.kill('SIGKILL')
    },
  }
}
