/**
 * The agent protocol, version 1: constants, calls and MQTT topic names. docs/agent-protocol.md
 * describes the same contract for people. Changes here are additive only: a breaking change gets a
 * new version segment (`pf/v2/...`) served beside this one.
 */

export const PROTOCOL_VERSION = 'v1'
export const TOPIC_ROOT = `pf/${PROTOCOL_VERSION}`

/** The shared identity a brand-new agent connects with to call `register` (password = provisioning key). */
export const PROVISIONING_USERNAME = 'provision'
/** Demo default of PROVISIONING_KEY; production sets its own (see README). */
export const DEFAULT_PROVISIONING_KEY = 'pixelfleet-demo-provisioning-key'

/** updateClientState payloads above this size are refused (issue 4). */
export const MAX_STATE_BYTES = 1024 * 1024
/** Every other call is small; anything above this is refused. */
export const MAX_CALL_BYTES = 64 * 1024

/** Calls an agent makes with its own credentials. */
export const AGENT_CALLS = ['createApplication', 'ping', 'updateClientState', 'getClientConfig', 'setClientConfig', 'getTunnelConfig', 'selfEnroll'] as const
export type AgentCall = (typeof AGENT_CALLS)[number]
/** The only call of the provisioning identity. */
export const PROVISION_CALL = 'register'

// ------------------------------------------------------------------------------------ topics

export const agentTopicPrefix = (agentId: string) => `${TOPIC_ROOT}/agents/${agentId}/`
export const agentRequestTopic = (agentId: string, call: AgentCall) => `${TOPIC_ROOT}/agents/${agentId}/req/${call}`
export const agentResponseTopic = (agentId: string, call: AgentCall) => `${TOPIC_ROOT}/agents/${agentId}/res/${call}`
/** Retained; the server publishes the agent's configuration here whenever it changes (e.g. enrollment). */
export const agentConfigTopic = (agentId: string) => `${TOPIC_ROOT}/agents/${agentId}/config`
/** Last Will topic: the agent sets a Will here so an unclean disconnect marks it offline. */
export const agentStatusTopic = (agentId: string) => `${TOPIC_ROOT}/agents/${agentId}/status`
/** Provisioning topics are scoped by the MQTT client id, so two provisioning clients never see each other's secret. */
/** Everything a provisioning connection may subscribe to lies under this prefix (wildcards included). */
export const provisionTopicPrefix = (clientId: string) => `${TOPIC_ROOT}/provision/${clientId}/`
export const provisionRequestTopic = (clientId: string) => `${TOPIC_ROOT}/provision/${clientId}/req/${PROVISION_CALL}`
export const provisionResponseTopic = (clientId: string) => `${TOPIC_ROOT}/provision/${clientId}/res/${PROVISION_CALL}`

export type ParsedTopic =
  | { scope: 'agent'; agentId: string; kind: 'req' | 'res'; call: string }
  | { scope: 'agent'; agentId: string; kind: 'config' | 'status' }
  | { scope: 'provision'; clientId: string; kind: 'req' | 'res'; call: string }

/** Splits a concrete (wildcard-free) topic of this protocol; null for anything else. */
export function parseTopic(topic: string): ParsedTopic | null {
  const parts = topic.split('/')
  if (parts[0] !== 'pf' || parts[1] !== PROTOCOL_VERSION) return null
  const [, , scope, id, kind, call] = parts
  if (!id) return null
  if (scope === 'agents') {
    if ((kind === 'config' || kind === 'status') && parts.length === 5) return { scope: 'agent', agentId: id, kind }
    if ((kind === 'req' || kind === 'res') && call && parts.length === 6) return { scope: 'agent', agentId: id, kind, call }
  }
  if (scope === 'provision' && (kind === 'req' || kind === 'res') && call && parts.length === 6) return { scope: 'provision', clientId: id, kind, call }
  return null
}

export const isAgentCall = (name: string): name is AgentCall => (AGENT_CALLS as readonly string[]).includes(name)

/** The byte limit for one call's payload. */
export const maxPayloadBytes = (call: string) => (call === 'updateClientState' ? MAX_STATE_BYTES : MAX_CALL_BYTES)
