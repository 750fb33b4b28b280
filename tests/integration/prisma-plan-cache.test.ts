/**
 * Query plans reused per shape (decision 105): a later query of a shape answers with its own
 * values, never another's; shapes whose plan is more than copied values (a `contains` pattern)
 * and writes are compiled every time. Vitest turns on verifyEveryHit, so every reuse in this file
 * (and in every other test file) is also compiled and compared.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { compileCached, planCacheStats } from '~/utils/prisma-plan-cache.server'
import { prisma } from '~/utils/db.server'

let orgId: string
const names = ['Alpha', 'Beta', 'He said "hi" \\ ☃ \u2028 end', 'Gamma']

beforeAll(async () => {
  const owner = await prisma.user.create({ data: { email: 'owner@plan-cache.test', name: 'Plan Owner', emailVerified: true } })
  orgId = (await prisma.organization.create({ data: { name: 'Plan Org', ownerId: owner.id } })).id
  for (const name of names) await prisma.project.create({ data: { organizationId: orgId, name, offlineAlarmMinutes: 5 + names.indexOf(name) } })
})

const byName = (name: string) => prisma.project.findMany({ where: { organizationId: orgId, name }, select: { name: true, offlineAlarmMinutes: true } })

describe('query plans per shape', () => {
  it('answers each query with its own values, quotes, backslashes and line separators included', async () => {
    const before = { ...planCacheStats }
    for (const name of [...names, ...names]) expect(await byName(name)).toEqual([{ name, offlineAlarmMinutes: 5 + names.indexOf(name) }])
    expect(await byName('Nobody')).toEqual([])
    // the first is compiled and proven, the other eight reuse it (and are compared, under Vitest)
    expect(planCacheStats.hits - before.hits).toBeGreaterThanOrEqual(8)
    expect(planCacheStats.verified - before.verified).toBe(planCacheStats.hits - before.hits)
  })

  it('keeps lists of another length, sort orders and relation filters apart', async () => {
    const list = (ids: string[], order: 'asc' | 'desc') => prisma.project.findMany({ where: { organizationId: orgId, name: { in: ids } }, orderBy: { name: order }, select: { name: true } })
    expect((await list(['Alpha', 'Beta'], 'asc')).map((p) => p.name)).toEqual(['Alpha', 'Beta'])
    expect((await list(['Gamma', 'Alpha'], 'desc')).map((p) => p.name)).toEqual(['Gamma', 'Alpha'])
    expect((await list(['Gamma', 'Beta', 'Alpha'], 'asc')).map((p) => p.name)).toEqual(['Alpha', 'Beta', 'Gamma'])
    expect((await list(['Beta'], 'desc')).map((p) => p.name)).toEqual(['Beta'])
    const count = (name: string) => prisma.organization.count({ where: { id: orgId, projects: { some: { name } } } })
    expect([await count('Alpha'), await count('Nobody'), await count('Gamma')]).toEqual([1, 0, 1])
  })

  it('reuses a shape with dates for other dates', async () => {
    const since = (at: Date) => prisma.project.count({ where: { organizationId: orgId, createdAt: { gte: at }, name: { not: 'Nobody' } } })
    const before = planCacheStats.hits
    expect(await since(new Date(Date.now() - 3_600_000))).toBe(names.length)
    expect(await since(new Date(Date.now() + 3_600_000))).toBe(0)
    expect(await since(new Date(0))).toBe(names.length)
    expect(planCacheStats.hits - before).toBe(2)
  })

  it('compiles a pattern filter every time, and answers it right', async () => {
    const containing = (text: string) => prisma.project.findMany({ where: { organizationId: orgId, name: { contains: text } }, select: { name: true }, orderBy: { name: 'asc' } })
    expect((await containing('ph')).map((p) => p.name)).toEqual(['Alpha'])
    const before = planCacheStats.hits
    expect((await containing('amm')).map((p) => p.name)).toEqual(['Gamma'])
    expect((await containing('ta')).map((p) => p.name)).toEqual(['Beta'])
    expect(planCacheStats.hits).toBe(before)
  })

  it('never reuses a write: each create gets its own id and time', async () => {
    const a = await prisma.project.create({ data: { organizationId: orgId, name: 'Write 1' } })
    // past the millisecond (a timer may fire a little early): a reused plan would repeat the first time
    await new Promise((r) => setTimeout(r, 20))
    const b = await prisma.project.create({ data: { organizationId: orgId, name: 'Write 2' } })
    expect(b.id).not.toBe(a.id)
    expect(b.createdAt.getTime()).toBeGreaterThan(a.createdAt.getTime())
  })
})

describe('the proof before a shape is reused', () => {
  // a model name per test: the cache is the process's, shared by these fake compilers
  const query = (value: string, model = 'Thing') => ({ modelName: model, action: 'findMany', query: { arguments: { where: { name: value } }, selection: { $scalars: true } } })
  const run = (compile: (json: string) => unknown, value: string) => {
    const q = query(value, compile.name)
    return compileCached({ compile }, JSON.stringify(q), q)
  }

  it('reuses a plan that only copies the values', () => {
    const copying = (json: string) => ({ sql: 'SELECT ?', args: [(JSON.parse(json) as ReturnType<typeof query>).query.arguments.where.name] })
    expect(run(copying, 'one')).toEqual({ sql: 'SELECT ?', args: ['one'] })
    const hits = planCacheStats.hits
    expect(run(copying, 'two')).toEqual({ sql: 'SELECT ?', args: ['two'] })
    expect(planCacheStats.hits).toBe(hits + 1)
  })

  it('never reuses a plan that changes a value, nor one that is not plain JSON', () => {
    const changing = (json: string) => ({ sql: 'SELECT ?', args: [`%${(JSON.parse(json) as ReturnType<typeof query>).query.arguments.where.name.toUpperCase()}%`], n: 1 })
    expect(run(changing, 'one')).toEqual({ sql: 'SELECT ?', args: ['%ONE%'], n: 1 })
    expect(run(changing, 'two')).toEqual({ sql: 'SELECT ?', args: ['%TWO%'], n: 1 })
    const withDate = (json: string) => ({ at: new Date(0), args: [(JSON.parse(json) as ReturnType<typeof query>).query.arguments.where.name], d: 1 })
    run(withDate, 'one')
    const hits = planCacheStats.hits
    expect(run(withDate, 'two')).toEqual({ at: new Date(0), args: ['two'], d: 1 })
    expect(planCacheStats.hits).toBe(hits)
  })
})
