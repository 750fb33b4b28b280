/**
 * The admin Utility screen's self-enroll options, searched and paged on the server (a service with
 * 1,000 organizations had 648 KB of options in one page): site admins only, every word matched in
 * the organization's or the project's name, nested projects named by their path, the switched-on
 * pairs with every answer, and bad input refused with nothing changed.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { searchSelfEnrollOptions, SELF_ENROLL_PAGE_SIZE, setSelfEnrollTargets } from '~/domain/agents/self-enroll.server'
import { prisma } from '~/utils/db.server'
import { actorFor } from '../setup/actor'

let n = 0
const person = async (isAdmin: boolean) => {
  const u = await prisma.user.create({ data: { email: `enroll-search-${++n}-${Date.now()}@test.io`, name: `Person ${n}`, emailVerified: true, isAdmin } })
  return actorFor(u)
}

describe('searchSelfEnrollOptions', () => {
  let admin: Awaited<ReturnType<typeof person>>
  let org: { id: string }
  let parent: { id: string }
  let child: { id: string }
  const unique = `Zyx${Date.now().toString(36)}`

  beforeAll(async () => {
    admin = await person(true)
    const owner = await prisma.user.create({ data: { email: `enroll-owner-${Date.now()}@test.io`, name: 'Owner', emailVerified: true } })
    org = await prisma.organization.create({ data: { name: `${unique} Rentals`, ownerId: owner.id } })
    parent = await prisma.project.create({ data: { name: 'Arena', organizationId: org.id } })
    child = await prisma.project.create({ data: { name: 'North Wall', organizationId: org.id, parentId: parent.id } })
    // more than a page of projects in one organization
    await prisma.project.createMany({ data: Array.from({ length: SELF_ENROLL_PAGE_SIZE + 5 }, (_, i) => ({ name: `Tour ${String(i).padStart(3, '0')}`, organizationId: org.id })) })
  })

  it('refuses anyone but a site admin', async () => {
    await expect(searchSelfEnrollOptions(await person(false), {})).rejects.toMatchObject({ code: 'permission-denied' })
  })

  it('finds projects by words of the organization and project names, with their path, in pages', async () => {
    const nested = await searchSelfEnrollOptions(admin, { query: `${unique.toLowerCase()} north` })
    expect(nested.options).toEqual([{ organizationId: org.id, organizationName: `${unique} Rentals`, projectId: child.id, projectName: 'Arena / North Wall', enabled: false }])
    expect(nested.nextOffset).toBeNull()

    const first = await searchSelfEnrollOptions(admin, { query: unique })
    expect(first.options).toHaveLength(SELF_ENROLL_PAGE_SIZE)
    expect(first.options.slice(0, 2).map((o) => o.projectName)).toEqual(['Arena', 'Arena / North Wall'])
    expect(first.nextOffset).toBe(SELF_ENROLL_PAGE_SIZE)
    const second = await searchSelfEnrollOptions(admin, { query: unique, offset: String(first.nextOffset) })
    expect(second.options).toHaveLength(7)
    expect(second.nextOffset).toBeNull()
    const names = [...first.options, ...second.options].map((o) => o.projectId)
    expect(new Set(names).size).toBe(SELF_ENROLL_PAGE_SIZE + 7)
  })

  it('answers the switched-on pairs whatever the search shows', async () => {
    await setSelfEnrollTargets(admin, { targets: [{ organizationId: org.id, projectId: child.id }] })
    const other = await searchSelfEnrollOptions(admin, { query: 'no such name at all' })
    expect(other.options).toEqual([])
    expect(other.enabled).toEqual([{ organizationId: org.id, organizationName: `${unique} Rentals`, projectId: child.id, projectName: 'Arena / North Wall', enabled: true }])
    const found = await searchSelfEnrollOptions(admin, { query: `${unique} north` })
    expect(found.options[0]?.enabled).toBe(true)
    await setSelfEnrollTargets(admin, { targets: [] })
  })

  it('refuses bad input with a clear error', async () => {
    await expect(searchSelfEnrollOptions(admin, { offset: '-1' })).rejects.toMatchObject({ code: 'invalid-argument', message: expect.stringContaining('offset must be 0 or more') })
    await expect(searchSelfEnrollOptions(admin, { query: 'x'.repeat(201) })).rejects.toMatchObject({ code: 'invalid-argument', message: expect.stringContaining('at most 200') })
    await expect(searchSelfEnrollOptions(admin, { sort: 'name' })).rejects.toMatchObject({ code: 'invalid-argument' })
  })
})
