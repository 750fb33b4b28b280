import mqtt, { type MqttClient } from 'mqtt'
import { afterAll, beforeAll } from 'vitest'
import { startBroker, type MqttBroker } from '../../broker/broker.server'
import {
  DEFAULT_PROVISIONING_KEY,
  PROVISIONING_USERNAME,
  agentRequestTopic,
  agentTopicPrefix,
  provisionRequestTopic,
  provisionResponseTopic,
  type AgentCall,
  type AgentCallRequest,
  type RegisterResult,
} from '../../protocol'

/** Starts the real broker on a free port for this test file (no web server: TCP only). */
export function startTestBroker() {
  const state: { broker: MqttBroker | null; url: string; warnings: string[] } = { broker: null, url: '', warnings: [] }
  beforeAll(async () => {
    state.broker = await startBroker({ port: 0, host: '127.0.0.1', logger: { info: () => {}, warn: (m) => state.warnings.push(m) } })
    state.url = `mqtt://127.0.0.1:${state.broker.port}`
  })
  afterAll(async () => {
    await state.broker?.close()
  })
  return state
}

const clients: MqttClient[] = []
afterAll(async () => {
  await Promise.all(clients.map((c) => c.endAsync(true).catch(() => {})))
})

export async function connect(url: string, options: mqtt.IClientOptions): Promise<MqttClient> {
  const client = await mqtt.connectAsync(url, { reconnectPeriod: 0, connectTimeout: 30_000, ...options })
  clients.push(client)
  return client
}

/** Waits for the next message on a topic (the client must be subscribed). */
export function nextMessage(client: MqttClient, topic: string, timeoutMs = 30_000): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no message on ${topic}`)), timeoutMs)
    const onMessage = (t: string, payload: Buffer) => {
      if (t !== topic) return
      clearTimeout(timer)
      client.off('message', onMessage)
      resolve(JSON.parse(payload.toString()) as Record<string, unknown>)
    }
    client.on('message', onMessage)
  })
}

let serial = 0
/** Provisions a new agent over MQTT, like a fresh device would. */
export async function registerAgent(url: string, name = 'Test agent'): Promise<RegisterResult> {
  const clientId = `prov-${process.pid}-${++serial}`
  const client = await connect(url, { clientId, username: PROVISIONING_USERNAME, password: DEFAULT_PROVISIONING_KEY })
  await client.subscribeAsync(provisionResponseTopic(clientId), { qos: 1 })
  const response = nextMessage(client, provisionResponseTopic(clientId))
  await client.publishAsync(provisionRequestTopic(clientId), JSON.stringify({ requestId: 'r1', product: 'Processor X', serial: `SN-${serial}`, version: '1.0', name }), { qos: 1 })
  const body = await response
  await client.endAsync()
  if (!body.ok) throw new Error(`register failed: ${JSON.stringify(body)}`)
  return body.result as RegisterResult
}

export type AgentConnection = { client: MqttClient; agentId: string; call: <C extends AgentCall>(call: C, body: AgentCallRequest<C>) => Promise<Record<string, unknown>> }

/** Connects as the agent and subscribes to its own topics; `call` publishes QoS 1 and returns the response. */
export async function connectAgent(url: string, agent: RegisterResult): Promise<AgentConnection> {
  const client = await connect(url, { clientId: agent.agentId, username: agent.agentId, password: agent.secret })
  await client.subscribeAsync(`${agentTopicPrefix(agent.agentId)}res/+`, { qos: 1 })
  let n = 0
  return {
    client,
    agentId: agent.agentId,
    call: async (call, body) => {
      const requestId = `q${++n}`
      const response = nextMessage(client, `${agentTopicPrefix(agent.agentId)}res/${call}`)
      await client.publishAsync(agentRequestTopic(agent.agentId, call), JSON.stringify({ ...body, requestId }), { qos: 1 })
      return response
    },
  }
}
