import { EventEmitter } from 'node:events'
import { singleton } from '~/utils/singleton.server'

/** A change the domain made; the SSE route forwards it to viewers who may see that organization. */
export type ChangeEvent = {
  /** null for site-wide changes (site messages, cloud state) */
  organizationId: string | null
  kind: 'organization' | 'project' | 'member' | 'role' | 'invite' | 'agent' | 'system' | 'issue' | 'note' | 'audit' | 'event' | 'site' | 'user'
  ids?: string[]
  /** limits delivery to one user (profile, own invites) */
  userId?: string
  /** made by a person (an issue acknowledged, cleared or commented), not by ingest or a sweep: views must show it at once (decision 086) */
  byPerson?: boolean
}

const bus = () =>
  singleton('change-bus', () => {
    const emitter = new EventEmitter()
    emitter.setMaxListeners(0)
    return emitter
  })

export function emitChange(event: ChangeEvent) {
  bus().emit('change', event)
}

export function onChange(listener: (event: ChangeEvent) => void): () => void {
  bus().on('change', listener)
  return () => bus().off('change', listener)
}

/**
 * Durable work was written to a queue (app/domain/jobs): that queue's poller in this process runs
 * at once instead of at its next tick. A separate event name, so live views never see it; other
 * nodes find the rows at their next tick.
 */
export function announceWork(queue: string) {
  bus().emit('work', queue)
}

export function onWork(listener: (queue: string) => void): () => void {
  bus().on('work', listener)
  return () => bus().off('work', listener)
}
