/**
 * The portal side of RabbitMQ's rabbitmq_auth_backend_http (external broker mode, MQTT_BROKER_URL):
 * RabbitMQ POSTs each MQTT connection's credentials and every queue, exchange and topic access here
 * and gets `allow` or `deny`. The decisions come from broker/acl.ts, the rules the embedded broker
 * applies, so both modes confine an identity to the same topics.
 *
 * The portal's own service user lives in RabbitMQ's internal database (tried first, see
 * scripts/ensure-rabbitmq.sh) and never reaches these endpoints. The endpoints say whether a secret
 * is right, so only the broker may ask: every address the request names (the socket peer and any
 * X-Forwarded-For, Forwarded or X-Real-IP entry a proxy added) must be in BROKER_AUTH_NETWORKS, so a
 * reverse proxy on the same host does not make internet clients look local; with BROKER_AUTH_SECRET
 * the path must also start with that secret (PORTAL_AUTH_URL=.../broker-auth/SECRET). Wrong
 * passwords are rate-limited per user name and client id (BROKER_AUTH_FAILURES).
 */
import { timingSafeEqual } from 'node:crypto'
import express from 'express'
import proxyAddr from 'proxy-addr'
import { RateLimiterMemory } from 'rate-limiter-flexible'
import { z } from 'zod'
import { identityOf, publishAllowed, routingKeyToTopic, subscriptionAllowed } from '../protocol'
import { authenticateClient } from './acl'

type Logger = { warn: (message: string) => void }

const userSchema = z.object({ username: z.string().max(256), password: z.string().max(1024).default(''), client_id: z.string().max(256).default('') })
const vhostSchema = z.object({ username: z.string().max(256), vhost: z.string().max(256), client_id: z.string().max(256).default('') })
const resourceSchema = z.object({
  username: z.string().max(256),
  vhost: z.string().max(256),
  resource: z.enum(['exchange', 'queue', 'topic']),
  name: z.string().max(512),
  permission: z.enum(['configure', 'write', 'read']),
  client_id: z.string().max(256).default(''),
})
const topicSchema = resourceSchema.extend({
  routing_key: z.string().max(1024),
  'variable_map.client_id': z.string().max(256).default(''),
})

const isAddress = (text: string) => /^[0-9a-f:.]+$/i.test(text) && (text.includes('.') || text.includes(':'))

/** The virtual host agents use: the path of BROKER_AMQP_URL (`/` when empty), the one the ingest workers consume from. */
export function brokerVhost(config: { MQTT_BROKER_URL?: string; BROKER_AMQP_URL?: string }): string {
  const path = config.BROKER_AMQP_URL ? new URL(config.BROKER_AMQP_URL).pathname.slice(1) : ''
  return path ? decodeURIComponent(path) : '/'
}

/** The MQTT plugin's per-client subscription queues (`mqtt-subscription-{clientId}qos0|qos1`). */
const subscriptionQueue = (clientId: string) => `mqtt-subscription-${clientId}qos`

export type BrokerAuthOptions = { vhost: string; exchange: string; networks: string[]; secret?: string; log: Logger }

/** Wrong passwords one user name or client id may try per window before its logins are refused unchecked. */
export const BROKER_AUTH_FAILURES = { points: 10, windowSeconds: 300 }

/** Every address a request names: the socket peer, then what proxies on the way added. */
export function requestAddresses(req: express.Request): string[] {
  const addresses = [req.socket.remoteAddress ?? '']
  const header = (name: string) => [req.headers[name]].flat().filter((v): v is string => typeof v === 'string')
  for (const value of header('x-forwarded-for')) addresses.push(...value.split(','))
  for (const value of header('x-real-ip')) addresses.push(value)
  // RFC 7239: for=192.0.2.1, for="[2001:db8::1]:4711", for=_hidden (not an address: refused)
  for (const value of header('forwarded')) {
    for (const pair of value.split(/[,;]/)) {
      const [name, raw = ''] = pair.split('=', 2).map((part) => part.trim())
      if (name?.toLowerCase() !== 'for') continue
      const unquoted = raw.replace(/^"|"$/g, '')
      const bracketed = unquoted.match(/^\[([^\]]*)\]/)
      addresses.push(bracketed ? bracketed[1]! : unquoted.includes('.') ? unquoted.replace(/:\d+$/, '') : unquoted)
    }
  }
  return addresses.map((a) => a.trim().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1'))
}

function sameSecret(given: string, expected: string) {
  let a: Buffer
  try {
    a = Buffer.from(decodeURIComponent(given))
  } catch {
    return false
  }
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

export function brokerAuthRouter(options: BrokerAuthOptions): express.Router {
  const trusted = proxyAddr.compile(options.networks)
  const failures = new RateLimiterMemory({ points: BROKER_AUTH_FAILURES.points, duration: BROKER_AUTH_FAILURES.windowSeconds })
  const router = express.Router()
  const refuse = (res: express.Response) => void res.status(403).type('text/plain').send('deny')
  router.use((req, res, next) => {
    const addresses = requestAddresses(req)
    if (addresses.some((address) => !address || !isAddress(address) || !trusted(address, 0))) return refuse(res)
    if (options.secret) {
      const [, given = '', ...rest] = req.url.split('/')
      if (!sameSecret(given, options.secret)) return refuse(res)
      req.url = `/${rest.join('/')}`
    }
    next()
  })
  router.use(express.urlencoded({ extended: false, limit: '8kb' }))
  const answer = (res: express.Response, allow: boolean) => res.type('text/plain').send(allow ? 'allow' : 'deny')
  // Anything that does not parse is a refusal, never an error page RabbitMQ would retry.
  const parse = <S extends z.ZodTypeAny>(schema: S, body: unknown): z.output<S> | null => {
    const parsed = schema.safeParse(body)
    return parsed.success ? parsed.data : null
  }

  router.post('/user', (req, res, next) => {
    const input = parse(userSchema, req.body)
    if (!input) return void answer(res, false)
    // Per client: an agent's id is both user name and client id; provisioning devices share the
    // user name, so one device's wrong keys do not lock the others out.
    const key = `${input.username}\n${input.client_id}`
    const check = async () => {
      const used = await failures.get(key)
      if (used && used.consumedPoints >= BROKER_AUTH_FAILURES.points) {
        options.log.warn(`mqtt: refused ${input.client_id || '(no client)'}: too many wrong passwords, not checked`)
        return false
      }
      const result = await authenticateClient(input.username, input.password, input.client_id)
      if (!result.ok) {
        options.log.warn(`mqtt: refused ${input.client_id || '(no client)'}: ${result.reason}`)
        await failures.penalty(key)
      }
      return result.ok
    }
    check().then((ok) => answer(res, ok), next)
  })

  router.post('/vhost', (req, res) => {
    const input = parse(vhostSchema, req.body)
    answer(res, !!input && input.vhost === options.vhost && identityOf(input.username, input.client_id || input.username) !== null)
  })

  router.post('/resource', (req, res) => {
    const input = parse(resourceSchema, req.body)
    if (!input || input.vhost !== options.vhost || !identityOf(input.username, input.client_id || input.username)) return void answer(res, false)
    if (input.resource === 'exchange') return void answer(res, input.name === options.exchange && input.permission !== 'configure')
    if (input.resource === 'queue') return void answer(res, input.name.startsWith(subscriptionQueue(input.client_id)))
    answer(res, false)
  })

  router.post('/topic', (req, res) => {
    const input = parse(topicSchema, req.body)
    const identity = input && identityOf(input.username, input['variable_map.client_id'] || input.client_id || input.username)
    if (!input || !identity || input.vhost !== options.vhost || input.name !== options.exchange) return void answer(res, false)
    const topic = routingKeyToTopic(input.routing_key)
    if (input.permission === 'read') return void answer(res, subscriptionAllowed(identity, topic))
    if (input.permission === 'write') {
      const check = publishAllowed(identity, topic)
      if (!check.ok) options.log.warn(`mqtt: refused ${input.username}: ${check.reason}`)
      return void answer(res, check.ok)
    }
    answer(res, false)
  })
  return router
}
