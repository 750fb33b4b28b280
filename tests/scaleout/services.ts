import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net, { type AddressInfo } from 'node:net'
import path from 'node:path'

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

export type Rabbit = { mqttUrl: string; amqpUrl: string; pid: number; ctl: (...args: string[]) => string; stop: () => void }

/** Our own RabbitMQ node in a temporary directory (scripts/ensure-rabbitmq.sh start), on free ports. */
export async function startRabbit(dir: string, portalAuthUrl: string): Promise<Rabbit> {
  const [amqp, mqtt, dist] = [await freePort(), await freePort(), await freePort()]
  const env = { ...process.env, RMQ_DIR: dir, RMQ_AMQP_PORT: String(amqp), RMQ_MQTT_PORT: String(mqtt), RMQ_DIST_PORT: String(dist), RMQ_USER: 'pixelfleet', RMQ_PASS: 'scaleout-pass', PORTAL_AUTH_URL: portalAuthUrl }
  const started = spawnSync('bash', [path.join(root, 'scripts/ensure-rabbitmq.sh'), 'start'], { env, encoding: 'utf8', timeout: 150_000 })
  if (started.status !== 0) throw new Error(`RabbitMQ did not start: ${started.stdout}${started.stderr}`)
  return {
    mqttUrl: `mqtt://pixelfleet:scaleout-pass@127.0.0.1:${mqtt}`,
    amqpUrl: `amqp://pixelfleet:scaleout-pass@127.0.0.1:${amqp}`,
    pid: Number(fs.readFileSync(path.join(dir, 'rabbitmq.pid'), 'utf8').trim()),
    // rabbitmqctl against this node (its cookie is in $HOME): boots an Erlang VM, seconds of CPU
    ctl: (...args: string[]) => {
      const run = spawnSync('/usr/lib/rabbitmq/bin/rabbitmqctl', ['-q', '-n', `pixelfleet${amqp}@localhost`, ...args], { env: { ...process.env, HOME: dir }, encoding: 'utf8', timeout: 60_000 })
      if (run.status !== 0) throw new Error(`rabbitmqctl ${args.join(' ')}: ${run.stdout}${run.stderr}`)
      return run.stdout
    },
    stop: () => {
      // The node's pid file: a signal is instant where rabbitmqctl boots a VM first.
      const pidFile = path.join(dir, 'rabbitmq.pid')
      if (fs.existsSync(pidFile)) spawnSync('kill', ['-9', fs.readFileSync(pidFile, 'utf8').trim()])
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

export type Node = { url: string; pid: number; stop: () => Promise<void> }

/** A web node (`server/start.ts`, production build) outside vitest (the bench): resolves on its ready line. */
export async function startNode(env: Record<string, string>, nodeArgs: string[] = []): Promise<Node> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'server/start.ts'], {
    cwd: root,
    env: { ...process.env, PIXELFLEET_SKIP_BUILD: '1', NODE_ENV: 'production', PORT: '0', RELAY_PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
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
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))])
      if (child.exitCode === null) child.kill('SIGKILL')
    },
  }
}
