/**
 * Who may connect: the provisioning identity with the provisioning key, or an agent with its own
 * id and secret (checked by the agent gateway). Both broker modes call it: the embedded aedes broker
 * in its hooks, RabbitMQ through rabbitmq_auth_backend_http (broker/http-auth.server.ts). Which
 * topics an identity may use is the protocol's rule set (protocol/acl.ts).
 */
import { authenticateAgent, isProvisioningKey } from '../ingest/agent-gateway.server'
import { PROVISIONING_USERNAME, SAFE_CLIENT_ID, type Identity } from '../protocol'

/** MQTT CONNACK return codes: 2 identifier rejected, 4 bad user name or password, 5 not authorized. */
export type Authentication = { ok: true; identity: Identity } | { ok: false; reason: string; returnCode: 2 | 4 | 5 }
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
