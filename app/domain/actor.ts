import { type TokenGrant } from './auth/token-scope'

/** Who is acting. Every domain function takes one and enforces its own permissions. */
export type UserActor = {
  kind: 'user'
  userId: string
  email: string
  name: string
  isSiteAdmin: boolean
  ip: string
  userAgent: string
  /** set when the request came with an API token: its scope narrows every permission check */
  token?: TokenGrant
}
export type AgentActor = { kind: 'agent'; agentId: string; ip: string }
export type SystemActor = { kind: 'system'; reason: string }
export type Actor = UserActor | AgentActor | SystemActor

export const systemActor = (reason: string): SystemActor => ({ kind: 'system', reason })

export function actorLabel(actor: Actor): string {
  if (actor.kind === 'user') return (actor.name || actor.email) + (actor.token ? ` via token ${actor.token.name}` : '')
  if (actor.kind === 'agent') return `agent ${actor.agentId}`
  return `system (${actor.reason})`
}
