/**
 * admin/ingestDeadLetters: how many agent messages the external broker's ingest kept aside because
 * they can never be stored (refused as invalid, or failing because of themselves; docs/decisions/021).
 * The broker side registers the counter (broker/external.server.ts); with the embedded broker
 * there is no dead-letter queue (invalid messages are answered with their refusal and dropped).
 */
import { type Actor } from '../actor'
import { requireSiteAdminActor } from './users-admin.server'

type DeadLetterCount = () => Promise<number>

let counter: DeadLetterCount | null = null

/** The external broker's count of its dead-letter queue; returns the unregister function. */
export function registerDeadLetterCount(count: DeadLetterCount): () => void {
  counter = count
  return () => {
    if (counter === count) counter = null
  }
}

export type IngestDeadLetters =
  | { broker: 'embedded'; deadLetters: null }
  | { broker: 'external'; queue: string; deadLetters: number | null; error?: string }

export async function ingestDeadLetters(actor: Actor): Promise<IngestDeadLetters> {
  requireSiteAdminActor(actor)
  if (!counter) return { broker: 'embedded', deadLetters: null }
  try {
    return { broker: 'external', queue: 'pixelfleet.ingest.dead', deadLetters: await counter() }
  } catch (error) {
    return { broker: 'external', queue: 'pixelfleet.ingest.dead', deadLetters: null, error: (error as Error).message }
  }
}
