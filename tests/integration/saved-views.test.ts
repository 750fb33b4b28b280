/**
 * Saved views of the agents list: each person's own, per organization; only people who may list
 * the organization's agents have them; bad input changes nothing; every change is audited.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { type UserActor } from '~/domain/actor'
import { encodeState } from '~/domain/fleet/agents-table-state'
import { deleteSavedView, listSavedViews, saveView } from '~/domain/saved-views/saved-views.server'
import { prisma } from '~/utils/db.server'
import { actorFor } from '../setup/actor'


async function userIn(label: string, organizationId: string, roleId: string) {
  const user = await prisma.user.create({ data: { email: `${label.replace(/\W/g, '')}-${Date.now()}@views.test`, name: label, emailVerified: true } })
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: user.id, roleId, organizationId } })
    await compileUserAcls(tx, user.id, organizationId)
  })
  return actorFor(user)
}

const helios = encodeState([{ id: 'product', value: ['Helios'] }])
const byName = encodeState([{ id: 'name', desc: true }])

describe('saved views', () => {
  let org: { id: string }
  let member: UserActor
  let viewer: UserActor
  let outsider: UserActor

  beforeAll(async () => {
    const owner = await prisma.user.create({ data: { email: `owner-${Date.now()}@views.test`, name: 'Owner', emailVerified: true } })
    const ownerB = await prisma.user.create({ data: { email: `ownerb-${Date.now()}@views.test`, name: 'Owner B', emailVerified: true } })
    org = await prisma.organization.create({ data: { name: 'Views Org', ownerId: owner.id } })
    const orgB = await prisma.organization.create({ data: { name: 'Other Org', ownerId: ownerB.id } })
    member = await userIn('Member', org.id, DEFAULT_ROLE_IDS.orgMember)
    viewer = await userIn('Viewer', org.id, DEFAULT_ROLE_IDS.orgViewer)
    outsider = await userIn('Outsider', orgB.id, DEFAULT_ROLE_IDS.orgAdmin)
  })

  it('saves the table state under a name, keeps only table parameters, and replaces a view of the same name', async () => {
    const saved = await saveView(member, org.id, { name: '  Helios walls ', query: `filters=${encodeURIComponent(helios)}&page=3&expanded=x` })
    expect(saved.name).toBe('Helios walls')
    expect(new URLSearchParams(saved.query).get('filters')).toBe(helios)
    expect([...new URLSearchParams(saved.query).keys()]).toEqual(['filters'])

    const replaced = await saveView(member, org.id, { name: 'Helios walls', query: new URLSearchParams({ filters: helios, sorting: byName }).toString() })
    expect(replaced.id).toBe(saved.id)
    expect((await listSavedViews(member, org.id)).map((v) => [v.name, [...new URLSearchParams(v.query).keys()]])).toEqual([['Helios walls', ['filters', 'sorting']]])

    const audits = await prisma.auditRecord.findMany({ where: { organizationId: org.id, action: { startsWith: 'savedView.' } }, orderBy: { createdAt: 'asc' } })
    expect(audits.map((a) => a.action)).toEqual(['savedView.create', 'savedView.update'])
  })

  it('are per person: another member sees none of them and cannot delete them', async () => {
    const [view] = await listSavedViews(member, org.id)
    expect(await listSavedViews(viewer, org.id)).toEqual([])
    await expect(deleteSavedView(viewer, org.id, view!.id)).rejects.toMatchObject({ status: 404 })
    expect(await listSavedViews(member, org.id)).toHaveLength(1)
  })

  it('refuses people outside the organization, API tokens and bad input, changing nothing', async () => {
    await expect(listSavedViews(outsider, org.id)).rejects.toMatchObject({ status: 403 })
    await expect(saveView(outsider, org.id, { name: 'x', query: `filters=${helios}` })).rejects.toMatchObject({ status: 403 })
    const withToken: UserActor = { ...member, token: { id: 't', name: 'ci' } as UserActor['token'] }
    await expect(listSavedViews(withToken, org.id)).rejects.toMatchObject({ status: 400 })
    await expect(saveView(member, org.id, { name: '', query: `filters=${helios}` })).rejects.toMatchObject({ status: 400, issues: [{ path: 'name', message: 'Name is required' }] })
    await expect(saveView(member, org.id, { name: 'x'.repeat(61), query: `filters=${helios}` })).rejects.toMatchObject({ status: 400 })
    // nothing that decodes to table state: nothing to save
    await expect(saveView(member, org.id, { name: 'Broken', query: 'filters=not-base64-json&page=2' })).rejects.toMatchObject({ status: 400 })
    expect((await listSavedViews(member, org.id)).map((v) => v.name)).toEqual(['Helios walls'])
  })

  it('deletes a view of its owner, audited', async () => {
    const [view] = await listSavedViews(member, org.id)
    await deleteSavedView(member, org.id, view!.id)
    expect(await listSavedViews(member, org.id)).toEqual([])
    expect(await prisma.auditRecord.count({ where: { organizationId: org.id, action: 'savedView.delete' } })).toBe(1)
  })
})
