import { leaseUntil, type JobKind } from './retry'

/**
 * Works off due rows of a durable queue (the outbox tables are the job rows: OutboxEmail,
 * ChannelDelivery). Each row is claimed first with a conditional update that moves its
 * nextAttemptAt to the end of a lease: the update matches only while the row still has the
 * nextAttemptAt this node read, so on SQLite and PostgreSQL alike exactly one node wins it, and a
 * node that dies mid-attempt leaves a row that becomes due again when the lease ends.
 */
export type DueQueue<R> = {
  kind: JobKind
  /** rows whose nextAttemptAt <= now, oldest first, at most `batch` */
  due: (now: Date, batch: number) => Promise<R[]>
  /** the conditional update: true when this node won the row until `until` */
  claim: (row: R, until: Date) => Promise<boolean>
  /** one attempt of a claimed row; records its outcome (done, retry at, failed); true when done */
  attempt: (row: R) => Promise<boolean>
}

/** Claims and attempts every due row; returns how many were done. */
export async function workDue<R>(queue: DueQueue<R>, now = new Date(), batch = 20): Promise<number> {
  const rows = await queue.due(now, batch)
  let done = 0
  for (const row of rows) {
    if (!(await queue.claim(row, leaseUntil(queue.kind, now)))) continue
    if (await queue.attempt(row)) done++
  }
  return done
}
