/**
 * Ingest on PostgreSQL blocks its thread while its statements run, so it first waits out every
 * Prisma transaction of that thread (decision 103): one holding a row ingest writes could never
 * commit otherwise. This checks the count it waits on: open during a transaction, closed after a
 * commit and after a rollback. SQLite needs none (ingest waits on the shared connection itself).
 */
import { describe, expect, it } from 'vitest'
import { isPostgres, prisma, prismaTransactionOpen } from '~/utils/db.server'

describe.skipIf(!isPostgres())('Prisma transactions open in this thread (PostgreSQL)', () => {
  it('are counted from start to commit or rollback', async () => {
    expect(prismaTransactionOpen()).toBe(false)
    await prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1`
      expect(prismaTransactionOpen()).toBe(true)
    })
    expect(prismaTransactionOpen()).toBe(false)
    await expect(
      prisma.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT 1`
        expect(prismaTransactionOpen()).toBe(true)
        throw new Error('rolled back on purpose')
      }),
    ).rejects.toThrow('rolled back on purpose')
    expect(prismaTransactionOpen()).toBe(false)
  })
})
