/**
 * What each agent call ingest serves does inside a batch: its own rows (ping metrics, the state
 * report's systems, enrollment codes, configuration) and its reply. Usage counts and agent events
 * are left to the batch (batch.server.ts).
 */
import { type AgentCall, type AgentCallPayload, type AgentCallResult, type ClientConfigResult } from '../protocol'
import { notFound } from '../app/domain/errors'
import { getConfig } from '~/utils/env.server'
import { parseJson } from '~/utils/db.server'
import { storeTunnelStatus, worseSeverity } from '../app/domain/agents/derived'
import { ENROLLMENT_CODE_VALIDITY_MS, formatEnrollmentCode, generateEnrollmentCode } from '../app/domain/agents/enrollment-code'
import { countCall, noteChange, type CallContext } from './batch.server'
import { emptySummary, sameSummary } from './cache.server'
import { upsertSystem } from './systems.server'
import { newId, type IngestStatements } from './sql-sqlite.server'

/** Calls ingest stores itself; selfEnroll is an enrollment, served by the enrollment domain (agent-gateway). */
export type IngestCall = Exclude<AgentCall, 'selfEnroll'>

export type Handler<C extends IngestCall> = (context: CallContext, payload: AgentCallPayload<C>) => AgentCallResult<C>

function touchAddress({ batch, agentId, agent, meta, location }: CallContext) {
  if (!meta.ip || meta.ip === agent.lastIp) return
  batch.sql.agentAddress.run({ id: agentId, ip: meta.ip, lat: location?.lat ?? null, long: location?.long ?? null, lookupIp: location ? meta.ip : null, now: batch.nowText })
  agent.lastIp = meta.ip
}

export const handlers: { [C in IngestCall]: Handler<C> } = {
  ping(context, payload) {
    const { batch, agentId, agent } = context
    const metrics = payload.metrics
    batch.sql.agentPing.run({ id: agentId, ...metrics, tunnelStatus: payload.tunnel !== undefined ? storeTunnelStatus(payload.tunnel) : null, now: batch.nowText })
    touchAddress(context)
    noteChange(batch, agent.organizationId, 'agent', agentId)
    return { lastSeen: batch.now.toISOString(), lastIp: agent.lastIp, metrics }
  },

  updateClientState(context, payload) {
    const { batch, agentId, agent } = context
    const totals = { systems: payload.systems.length, devices: 0, alerts: 0, deviations: 0 }
    const systemIds: string[] = []
    for (const report of payload.systems) {
      systemIds.push(upsertSystem(context, report).id)
      totals.devices += report.devices.length
      totals.alerts += report.alerts.length
      totals.deviations += report.deviations.length
    }
    const summary = emptySummary()
    for (const s of agent.systems.values()) {
      summary.alertsCount += s.summary.alertsCount
      summary.alertsSeverity = worseSeverity(summary.alertsSeverity, s.summary.alertsSeverity)
      summary.deviationsCount += s.summary.deviationsCount
      summary.deviationsSeverity = worseSeverity(summary.deviationsSeverity, s.summary.deviationsSeverity)
    }
    if (!sameSummary(summary, agent.summary)) {
      batch.sql.agentSummary.run({ id: agentId, ...summary, now: batch.nowText })
      agent.summary = summary
      noteChange(batch, agent.organizationId, 'agent', agentId)
    }
    touchAddress(context)
    batch.seen.add(agentId)
    countCall(batch, agentId, agent, 'updateClientState', systemIds)
    return totals
  },

  createApplication({ batch, agentId, agent }) {
    const code = generateEnrollmentCode()
    batch.sql.enrollmentCodeInsert.run(newId(), agentId, code, batch.nowText)
    batch.seen.add(agentId)
    noteChange(batch, agent.organizationId, 'agent', agentId)
    return {
      applicationCode: formatEnrollmentCode(code),
      created: batch.now.toISOString(),
      expires: new Date(batch.now.getTime() + ENROLLMENT_CODE_VALIDITY_MS).toISOString(),
    }
  },

  getClientConfig({ batch, agentId }) {
    batch.seen.add(agentId)
    return clientConfigOf(storedConfig(batch.sql, agentId))
  },

  setClientConfig({ batch, agentId, agent }, payload) {
    batch.sql.agentConfigSet.run(JSON.stringify(payload.config), batch.nowText, agentId)
    batch.seen.add(agentId)
    noteChange(batch, agent.organizationId, 'agent', agentId)
    return clientConfigOf(storedConfig(batch.sql, agentId))
  },

  getTunnelConfig({ batch, agentId, agent }) {
    batch.seen.add(agentId)
    return { enabled: agent.organizationId !== null, relayUrl: getConfig().relayPublicUrl }
  },
}

function storedConfig(sql: IngestStatements, agentId: string) {
  const row = sql.agentConfig.get(agentId) as { config: string; organizationId: string | null } | undefined
  if (!row) throw notFound('Agent not found')
  return row
}

export function clientConfigOf(row: { config: string; organizationId: string | null }): ClientConfigResult {
  return { config: parseJson<Record<string, unknown>>(row.config, {}), organizationId: row.organizationId, enrolled: row.organizationId !== null }
}
