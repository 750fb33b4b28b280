/**
 * A write made outside a transaction is not part of one that happens to be open at the same time.
 * On SQLite the process has one connection, and the driver adapter ran every statement on it: a
 * plain write issued while another request's interactive transaction was open joined that
 * transaction, and was rolled back with it after its caller had been told it was written (this
 * lost an alarm's notification rows, decision 098). The adapter now makes such statements wait for
 * the open transaction to end (patches/@prisma+adapter-better-sqlite3, decision 100). On
 * PostgreSQL each transaction has a connection of its own; the same assertions hold.
 */
import { describe, expect, it } from 'vitest'
import { prisma } from '~/utils/db.server'

describe('a write outside a transaction', () => {
  it('survives the rollback of a transaction open at the same time, and a read does not see its uncommitted rows', async () => {
    let insideWrote!: () => void
    const wroteInside = new Promise<void>((resolve) => (insideWrote = resolve))
    let letItFail!: () => void
    const failNow = new Promise<void>((resolve) => (letItFail = resolve))

    const failing = prisma
      .$transaction(
        async (tx) => {
          await tx.rateLimiterFlexible.create({ data: { key: 'tx-uncommitted', points: 1 } })
          insideWrote()
          await failNow
          throw new Error('the transaction fails after the plain write was made')
        },
        { timeout: 60_000, maxWait: 60_000 },
      )
      .catch((error: Error) => error)

    await wroteInside
    // issued while the transaction is open (a Prisma query runs once it is awaited or `then`ed)
    const plainWrite = prisma.rateLimiterFlexible.create({ data: { key: 'plain-write', points: 2 } }).then((row) => row)
    const plainRead = prisma.rateLimiterFlexible.findUnique({ where: { key: 'tx-uncommitted' } }).then((row) => row)
    // Time for both to reach the connection while the transaction is open: before the fix they ran
    // inside it. Not an assertion on time: on a slower machine they may arrive after the rollback,
    // and every expectation below holds either way.
    await new Promise((resolve) => setTimeout(resolve, 300))
    letItFail()

    expect(await failing).toBeInstanceOf(Error)
    await plainWrite
    expect(await plainRead).toBeNull()
    expect(await prisma.rateLimiterFlexible.findUnique({ where: { key: 'plain-write' } })).toMatchObject({ points: 2 })
    expect(await prisma.rateLimiterFlexible.findUnique({ where: { key: 'tx-uncommitted' } })).toBeNull()
  })
})
