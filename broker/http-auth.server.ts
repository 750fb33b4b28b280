/**
 * The portal side of RabbitMQ's rabbitmq_auth_backend_http (external broker mode, MQTT_BROKER_URL):
 * RabbitMQ POSTs each MQTT connection's credentials and every queue, exchange and topic access here
 * and gets `allow` or `deny`. The decisions come from broker/acl.ts, the rules the embedded broker
 * applies, so both modes confine an identity to the same topics.
 *
 * The portal's own service user lives in RabbitMQ's internal database (tried first, see
 * scripts/ensure-rabbitmq.sh) and never reaches these endpoints. Only callers from
 * BROKER_AUTH_NETWORKS are answered: the endpoints say whether a secret is right.
 */
import express from 'express'
import proxyAddr from 'proxy-addr'
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

/** The virtual host agents use: the path of BROKER_AMQP_URL (`/` when empty), the one the ingest workers consume from. */
export function brokerVhost(config: { MQTT_BROKER_URL?: string; BROKER_AMQP_URL?: string }): string {
  const path = config.BROKER_AMQP_URL ? new URL(config.BROKER_AMQP_URL).pathname.slice(1) : ''
  return path ? decodeURIComponent(path) : '/'
}

/** The MQTT plugin's per-client subscription queues (`mqtt-subscription-{clientId}qos0|qos1`). */
const subscriptionQueue = (clientId: string) => `mqtt-subscription-${clientId}qos`

export type BrokerAuthOptions = { vhost: string; exchange: string; networks: string[]; log: Logger }

export function brokerAuthRouter(options: BrokerAuthOptions): express.Router {
  const trusted = proxyAddr.compile(options.networks)
  const router = express.Router()
  router.use(express.urlencoded({ extended: false, limit: '8kb' }))
  router.use((req, res, next) => {
    const address = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '')
    if (!address || !trusted(address, 0)) return void res.status(403).type('text/plain').send('deny')
    next()
  })
  const answer = (res: express.Response, allow: boolean) => res.type('text/plain').send(allow ? 'allow' : 'deny')
  // Anything that does not parse is a refusal, never an error page RabbitMQ would retry.
  const parse = <S extends z.ZodTypeAny>(schema: S, body: unknown): z.output<S> | null => {
    const parsed = schema.safeParse(body)
    return parsed.success ? parsed.data : null
  }

  router.post('/user', (req, res, next) => {
    const input = parse(userSchema, req.body)
    if (!input) return void answer(res, false)
    authenticateClient(input.username, input.password, input.client_id).then((result) => {
      if (!result.ok) options.log.warn(`mqtt: refused ${input.client_id || '(no client)'}: ${result.reason}`)
      answer(res, result.ok)
    }, next)
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
