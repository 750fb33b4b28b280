/**
 * Who may connect and which topics each identity may use: the one rule set of both broker modes.
 * The embedded aedes broker (broker.server.ts) calls it in its hooks; an external RabbitMQ asks
 * the portal through rabbitmq_auth_backend_http (broker/http-auth.server.ts), which calls the same
 * functions after turning AMQP routing keys back into MQTT topics.
 */
import { authenticateAgent, isProvisioningKey } from '../app/domain/agents/agent-gateway.server'
import { PROVISIONING_USERNAME, PROVISION_CALL, agentTopicPrefix, parseTopic, provisionTopicPrefix, type ParsedTopic } from './protocol'

export type Identity = { kind: 'agent'; agentId: string } | { kind: 'provision'; clientId: string }

/** MQTT CONNACK return codes: 2 identifier rejected, 4 bad user name or password, 5 not authorized. */
export type Authentication = { ok: true; identity: Identity } | { ok: false; reason: string; returnCode: 2 | 4 | 5 }

/** The client id becomes a topic level: no wildcards or separators (and no `.`, RabbitMQ's level separator). */
export const SAFE_CLIENT_ID = /^[A-Za-z0-9_-]{1,64}$/

/** Checks an MQTT CONNECT: the provisioning identity with the provisioning key, or an agent with its own id as client id and its secret. */
export async function authenticateClient(username: string | undefined, password: string, clientId: string): Promise<Authentication> {
  if (!username) return { ok: false, reason: 'no username', returnCode: 4 }
  if (username === PROVISIONING_USERNAME) {
    if (!isProvisioningKey(password)) return { ok: false, reason: 'wrong provisioning key', returnCode: 4 }
    if (!SAFE_CLIENT_ID.test(clientId)) return { ok: false, reason: 'provisioning client id must be 1-64 letters, digits, _ or -', returnCode: 2 }
    return { ok: true, identity: { kind: 'provision', clientId } }
  }
  if (clientId !== username) return { ok: false, reason: `client id must equal the agent id ${username}`, returnCode: 5 }
  const result = await authenticateAgent(username, password)
  if (!result.ok) return { ok: false, reason: `agent ${username}: ${result.reason}`, returnCode: result.reason === 'disabled' ? 5 : 4 }
  return { ok: true, identity: { kind: 'agent', agentId: username } }
}

/** The identity a connection has once authenticated, from its user name and client id alone (no secret check). */
export function identityOf(username: string, clientId: string): Identity | null {
  if (username === PROVISIONING_USERNAME) return SAFE_CLIENT_ID.test(clientId) ? { kind: 'provision', clientId } : null
  return clientId === username && SAFE_CLIENT_ID.test(username) ? { kind: 'agent', agentId: username } : null
}

/**
 * A subscription must stay inside the identity's own prefix; wildcards after it are fine (docs/agent-protocol.md):
 * `pf/v1/provision/{clientId}/res/+`, `pf/v1/agents/{agentId}/#`. Client ids and agent ids hold no
 * wildcard or separator (checked at connect), so a filter starting with the prefix cannot reach outside it.
 */
export function subscriptionAllowed(identity: Identity, filter: string): boolean {
  const prefix = identity.kind === 'provision' ? provisionTopicPrefix(identity.clientId) : agentTopicPrefix(identity.agentId)
  return filter.startsWith(prefix)
}

export type PublishCheck = { ok: true; topic: ParsedTopic } | { ok: false; reason: string }

/** Agents publish requests and their status on their own topics; the provisioning identity only calls register on its own. */
export function publishAllowed(identity: Identity, topicName: string): PublishCheck {
  if (topicName.startsWith('$SYS/')) return { ok: false, reason: '$SYS/ topic is reserved' }
  const topic = parseTopic(topicName)
  if (!topic) return { ok: false, reason: `publish to ${topicName} outside the protocol` }
  if (identity.kind === 'provision') {
    if (topic.scope !== 'provision' || topic.clientId !== identity.clientId || topic.kind !== 'req' || topic.call !== PROVISION_CALL) {
      return { ok: false, reason: `provisioning identity may only call register on its own topic, not ${topicName}` }
    }
    return { ok: true, topic }
  }
  if (topic.scope !== 'agent' || topic.agentId !== identity.agentId || (topic.kind !== 'req' && topic.kind !== 'status')) {
    return { ok: false, reason: `agent ${identity.agentId} may not publish to ${topicName}` }
  }
  return { ok: true, topic }
}

/** RabbitMQ's MQTT plugin maps topic `a/b/+/#` to routing key `a.b.*.#`; this is the way back. */
export function routingKeyToTopic(routingKey: string): string {
  return routingKey
    .split('.')
    .map((level) => (level === '*' ? '+' : level))
    .join('/')
}
