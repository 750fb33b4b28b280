/**
 * Which topics each identity may use: the one rule set of both broker modes (embedded aedes and
 * RabbitMQ through its HTTP auth backend). Pure functions of the identity and the topic; who an
 * identity is (the secret check) is the agent gateway's business (broker/acl.ts).
 */
import { PROVISION_CALL, PROVISIONING_USERNAME, agentTopicPrefix, parseTopic, provisionTopicPrefix, type ParsedTopic } from './topics'

export type Identity = { kind: 'agent'; agentId: string } | { kind: 'provision'; clientId: string }

/** The client id becomes a topic level: no wildcards or separators (and no `.`, RabbitMQ's level separator). */
export const SAFE_CLIENT_ID = /^[A-Za-z0-9_-]{1,64}$/

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
