/**
 * Notes: they belong to one organization (a member of another organization can neither list,
 * read nor change them, through the domain, the API or the panel's resource route), and each
 * note carries the actor's own flags, which the domain also enforces.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { type UserActor } from '~/domain/actor'
import { createSession } from '~/domain/auth/session.server'
import { createNote, deleteNote, getNote, listNotes, setNoteArchived, updateNote } from '~/domain/notes/notes.server'
import { commitSessionCookie } from '~/utils/auth.server'
import { prisma } from '~/utils/db.server'
import { actorFor } from '../setup/actor'


async function userIn(label: string, organizationId: string, roleId: string) {
  const user = await prisma.user.create({ data: { email: `${label}-${Date.now()}@notes.test`, name: label, emailVerified: true } })
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: user.id, roleId, organizationId } })
    await compileUserAcls(tx, user.id, organizationId)
  })
  return user
}

async function cookieFor(userId: string) {
  const session = await createSession(userId, { ip: '10.0.0.9', userAgent: 'vitest' })
  return (await commitSessionCookie(session.token, session.expiresAt)).split(';')[0]!
}

describe('notes', () => {
  let orgA: { id: string }
  let admin: UserActor
  let member: UserActor
  let viewer: UserActor
  let outsider: UserActor
  let noteId: string
  const page = () => `/organization/${orgA.id}/agents`

  beforeAll(async () => {
    const ownerA = await prisma.user.create({ data: { email: `owner-${Date.now()}@notes.test`, name: 'Owner A', emailVerified: true } })
    const ownerB = await prisma.user.create({ data: { email: `ownerb-${Date.now()}@notes.test`, name: 'Owner B', emailVerified: true } })
    orgA = await prisma.organization.create({ data: { name: 'Org A', ownerId: ownerA.id } })
    const orgB = await prisma.organization.create({ data: { name: 'Org B', ownerId: ownerB.id } })
    admin = actorFor(await userIn('Admin A', orgA.id, DEFAULT_ROLE_IDS.orgAdmin))
    member = actorFor(await userIn('Member A', orgA.id, DEFAULT_ROLE_IDS.orgMember))
    viewer = actorFor(await userIn('Viewer A', orgA.id, DEFAULT_ROLE_IDS.orgViewer))
    // Strong in its own organization, nothing in A.
    outsider = actorFor(await userIn('Admin B', orgB.id, DEFAULT_ROLE_IDS.orgAdmin))
    const note = await createNote(member, orgA.id, { content: 'Check the left wall\nbefore the show', resourcePath: `${page()}/?tab=1`, resourceDisplayName: 'Org A / Agents' })
    noteId = note.id
  })

  it('creates notes on pages of the organization with blue as the default colour and audits it', async () => {
    const { notes, canCreate } = await listNotes(member, orgA.id, { resourcePath: page() })
    expect(canCreate).toBe(true)
    expect(notes).toHaveLength(1)
    expect(notes[0]).toMatchObject({ id: noteId, color: 'blue', resourcePath: page(), authorName: 'Member A', archived: false })
    expect(await prisma.auditRecord.count({ where: { organizationId: orgA.id, action: 'note.create' } })).toBe(1)
    await expect(createNote(member, orgA.id, { content: 'x', resourcePath: '/organization/other-org/agents' })).rejects.toMatchObject({ status: 400 })
    await expect(createNote(member, orgA.id, { content: 'x', resourcePath: page(), color: 'purple' })).rejects.toMatchObject({ status: 400 })
  })

  it('computes the flags per actor, and the domain refuses what a flag denies', async () => {
    const [forViewer] = (await listNotes(viewer, orgA.id)).notes
    expect(forViewer).toMatchObject({ canUpdate: false, canArchive: false, canUnarchive: false, canDelete: false })
    await expect(updateNote(viewer, orgA.id, noteId, { content: 'defaced' })).rejects.toMatchObject({ status: 403 })
    await expect(setNoteArchived(viewer, orgA.id, noteId, true)).rejects.toMatchObject({ status: 403 })
    expect((await listNotes(viewer, orgA.id)).canCreate).toBe(false)

    const [forMember] = (await listNotes(member, orgA.id)).notes
    // Organization Member: update, archive and unarchive, but not delete.
    expect(forMember).toMatchObject({ canUpdate: true, canArchive: true, canUnarchive: false, canDelete: false })
    await expect(deleteNote(member, orgA.id, noteId)).rejects.toMatchObject({ status: 403 })

    const updated = await updateNote(member, orgA.id, noteId, { content: 'Check the left wall', color: 'red' })
    expect(updated).toMatchObject({ content: 'Check the left wall', color: 'red' })

    const archived = await setNoteArchived(member, orgA.id, noteId, true)
    expect(archived.archived).toBe(true)
    expect(archived.archivedOn).toBeInstanceOf(Date)
    expect(archived).toMatchObject({ canArchive: false, canUnarchive: true })
    await expect(setNoteArchived(member, orgA.id, noteId, true)).rejects.toMatchObject({ status: 400 })
    expect(await setNoteArchived(member, orgA.id, noteId, false)).toMatchObject({ archived: false, archivedOn: null })
  })

  it('is invisible and unchangeable to a member of another organization', async () => {
    await expect(listNotes(outsider, orgA.id)).rejects.toMatchObject({ status: 403 })
    await expect(getNote(outsider, orgA.id, noteId)).rejects.toMatchObject({ status: 403 })
    await expect(updateNote(outsider, orgA.id, noteId, { content: 'hijacked' })).rejects.toMatchObject({ status: 403 })
    await expect(setNoteArchived(outsider, orgA.id, noteId, true)).rejects.toMatchObject({ status: 403 })
    await expect(deleteNote(outsider, orgA.id, noteId)).rejects.toMatchObject({ status: 403 })
    // Naming its own organization does not reach A's note either.
    const ownOrg = (await prisma.compiledAcl.findFirstOrThrow({ where: { userId: outsider.userId } })).organizationId
    await expect(updateNote(outsider, ownOrg, noteId, { content: 'hijacked' })).rejects.toMatchObject({ status: 404 })
    await expect(deleteNote(outsider, ownOrg, noteId)).rejects.toMatchObject({ status: 404 })
    expect((await listNotes(outsider, ownOrg)).notes).toEqual([])

    // The same through the panel's resource route and the JSON API.
    const cookie = await cookieFor(outsider.userId)
    const { loader, action } = await import('~/routes/resources.notes')
    const listing = new Request(`http://portal.test/resources/notes?organizationId=${orgA.id}&path=${encodeURIComponent(page())}`, { headers: { cookie } })
    await expect(loader({ request: listing, params: {}, context: {} })).rejects.toMatchObject({ init: { status: 403 } })
    const form = new FormData()
    for (const [k, v] of Object.entries({ intent: 'delete', organizationId: orgA.id, noteId })) form.set(k, v)
    const refused = await action({ request: new Request('http://portal.test/resources/notes', { method: 'POST', body: form, headers: { cookie } }), params: {}, context: {} })
    expect(refused.init?.status).toBe(403)

    const api = (await import('~/routes/client.v1.$')).action
    const call = (name: string, body: object) =>
      api({ request: new Request(`http://portal.test/client/v1/${name}`, { method: 'POST', body: JSON.stringify(body), headers: { cookie, 'content-type': 'application/json' } }), params: { '*': name }, context: {} }) as Promise<Response>
    expect((await call('note/list', { organization: orgA.id })).status).toBe(403)
    expect((await call('note/update', { organization: orgA.id, note: noteId, content: 'hijacked' })).status).toBe(403)
    expect((await call('note/update', { organization: ownOrg, note: noteId, content: 'hijacked' })).status).toBe(404)

    expect(await prisma.note.findUniqueOrThrow({ where: { id: noteId } })).toMatchObject({ content: 'Check the left wall', archived: false })
  })

  it('lets an organization admin delete a note', async () => {
    expect((await listNotes(admin, orgA.id)).notes[0]!.canDelete).toBe(true)
    await deleteNote(admin, orgA.id, noteId)
    expect((await listNotes(admin, orgA.id)).notes).toEqual([])
    expect(await prisma.auditRecord.count({ where: { organizationId: orgA.id, action: 'note.delete' } })).toBe(1)
  })
})
