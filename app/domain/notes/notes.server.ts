import { z } from 'zod'
import { type Actor } from '../actor'
import { getOrganizationAccess, type OrganizationAccess } from '../access/access.server'
import { type Permission } from '../access/catalogue'
import { audit } from '../audit/audit.server'
import { invalid, notFound } from '../errors'
import { emitChange } from '../events/bus.server'
import { parseInput } from '../parse-input'
import { DEFAULT_NOTE_COLOR, NOTE_COLORS, type NoteColor } from './note-colors'
import { noteExcerpt } from './note-text'
import { prisma, type Tx } from '~/utils/db.server'

const CONTENT_MAX = 10_000

/** A note as every caller sees it: the actor's flags are computed here, never in the browser. */
export type NoteView = {
  id: string
  organizationId: string
  content: string
  color: NoteColor
  resourcePath: string
  resourceDisplayName: string
  authorId: string
  authorName: string
  archived: boolean
  archivedOn: Date | null
  created: Date
  updated: Date
  canUpdate: boolean
  canArchive: boolean
  canUnarchive: boolean
  canDelete: boolean
}

/** Page paths are compared without query, hash or trailing slash. */
export function normalizeResourcePath(path: string): string {
  const bare = path.split(/[?#]/)[0]!.trim()
  return bare.length > 1 ? bare.replace(/\/+$/, '') : bare
}

const contentField = z.string({ invalid_type_error: 'Content must be text' }).max(CONTENT_MAX, `Content must be at most ${CONTENT_MAX} characters`)
const colorField = z.enum(NOTE_COLORS, { errorMap: () => ({ message: `Color must be one of ${NOTE_COLORS.join(', ')}` }) })
const displayNameField = z.string({ invalid_type_error: 'Display name must be text' }).trim().max(200, 'Display name must be at most 200 characters')

export const createNoteInput = z.object({
  content: contentField.default(''),
  color: colorField.default(DEFAULT_NOTE_COLOR),
  resourcePath: z.string({ required_error: 'Page path is required', invalid_type_error: 'Page path is required' }).min(1, 'Page path is required').max(500, 'Page path is too long'),
  resourceDisplayName: displayNameField.default(''),
})
export const updateNoteInput = z.object({ content: contentField, color: colorField, resourceDisplayName: displayNameField }).partial()

type NoteRow = Awaited<ReturnType<typeof loadNoteRows>>[number]

function loadNoteRows(db: Tx | typeof prisma, where: { organizationId: string; resourcePath?: string; id?: string }) {
  return db.note.findMany({
    where,
    include: { author: { select: { name: true, email: true } } },
    orderBy: [{ updatedAt: 'desc' }, { id: 'asc' }],
  })
}

function toView(access: OrganizationAccess, note: NoteRow): NoteView {
  return {
    id: note.id,
    organizationId: note.organizationId,
    content: note.content,
    color: (NOTE_COLORS as readonly string[]).includes(note.color) ? (note.color as NoteColor) : DEFAULT_NOTE_COLOR,
    resourcePath: note.resourcePath,
    resourceDisplayName: note.resourceDisplayName,
    authorId: note.authorId,
    authorName: note.author.name || note.author.email,
    archived: note.archived,
    archivedOn: note.archivedOn,
    created: note.createdAt,
    updated: note.updatedAt,
    canUpdate: access.can('note.update'),
    canArchive: !note.archived && access.can('note.archive'),
    canUnarchive: note.archived && access.can('note.unarchive'),
    canDelete: access.can('note.delete'),
  }
}

/** A note of this organization or 404: a note of another organization is never found here. */
async function findNote(db: Tx | typeof prisma, access: OrganizationAccess, noteId: string): Promise<NoteRow> {
  const [note] = await loadNoteRows(db, { organizationId: access.organization.id, id: noteId })
  if (!note) throw notFound('Note not found')
  return note
}

async function requireAccess(actor: Actor, organizationId: string, permission: Permission) {
  const access = await getOrganizationAccess(actor, organizationId)
  access.require(permission)
  return access
}

/**
 * note/list: the organization's notes, optionally only those attached to one page path, and
 * whether the actor may add one (the panel's and the page's 'New Note' button).
 */
export async function listNotes(
  actor: Actor,
  organizationId: string,
  options: { resourcePath?: string | null } = {},
): Promise<{ notes: NoteView[]; canCreate: boolean }> {
  const access = await requireAccess(actor, organizationId, 'note.list')
  const resourcePath = options.resourcePath ? normalizeResourcePath(options.resourcePath) : undefined
  const rows = await loadNoteRows(prisma, { organizationId, ...(resourcePath ? { resourcePath } : {}) })
  return { notes: rows.map((row) => toView(access, row)), canCreate: access.can('note.create') }
}

/** One note (note.view). */
export async function getNote(actor: Actor, organizationId: string, noteId: string): Promise<NoteView> {
  const access = await requireAccess(actor, organizationId, 'note.view')
  return toView(access, await findNote(prisma, access, noteId))
}

/** note/create: attached to a page inside this organization's workspace (/organization/{id}...). */
export async function createNote(actor: Actor, organizationId: string, raw: unknown): Promise<NoteView> {
  const access = await requireAccess(actor, organizationId, 'note.create')
  if (actor.kind !== 'user') throw invalid('Only people can write notes')
  const input = parseInput(createNoteInput, raw)
  const resourcePath = normalizeResourcePath(input.resourcePath)
  const workspace = `/organization/${organizationId}`
  if (resourcePath !== workspace && !resourcePath.startsWith(`${workspace}/`)) {
    throw invalid('A note must be attached to a page of this organization', [{ path: 'resourcePath', message: 'A note must be attached to a page of this organization' }])
  }
  const note = await prisma.$transaction(async (tx) => {
    const created = await tx.note.create({
      data: { organizationId, authorId: actor.userId, content: input.content, color: input.color, resourcePath, resourceDisplayName: input.resourceDisplayName },
    })
    await audit(tx, actor, { organizationId, action: 'note.create', message: `Note '${noteExcerpt(created.content)}' created on ${resourcePath}` })
    return findNote(tx, access, created.id)
  })
  emitChange({ organizationId, kind: 'note', ids: [note.id] })
  return toView(access, note)
}

/** Shared shape of every change to an existing note: permission, lookup, write, audit, event. */
async function changeNote(
  actor: Actor,
  organizationId: string,
  noteId: string,
  permission: Permission,
  change: (tx: Tx, note: NoteRow) => Promise<{ action: string; message: string; deleted?: boolean }>,
): Promise<NoteView | null> {
  const access = await requireAccess(actor, organizationId, permission)
  const result = await prisma.$transaction(async (tx) => {
    const note = await findNote(tx, access, noteId)
    const { action, message, deleted } = await change(tx, note)
    await audit(tx, actor, { organizationId, action, message })
    return deleted ? null : findNote(tx, access, noteId)
  })
  emitChange({ organizationId, kind: 'note', ids: [noteId] })
  return result ? toView(access, result) : null
}

/** note/update: content, colour or display name. */
export async function updateNote(actor: Actor, organizationId: string, noteId: string, raw: unknown): Promise<NoteView> {
  const input = parseInput(updateNoteInput, raw)
  const view = await changeNote(actor, organizationId, noteId, 'note.update', async (tx, note) => {
    await tx.note.update({ where: { id: note.id }, data: input })
    return { action: 'note.update', message: `Note '${noteExcerpt(input.content ?? note.content)}' updated` }
  })
  return view!
}

/** note/archive (only an active note) and note/unarchive (only an archived one). */
export async function setNoteArchived(actor: Actor, organizationId: string, noteId: string, archived: boolean): Promise<NoteView> {
  const view = await changeNote(actor, organizationId, noteId, archived ? 'note.archive' : 'note.unarchive', async (tx, note) => {
    if (note.archived === archived) throw invalid(archived ? 'The note is already archived' : 'The note is not archived')
    await tx.note.update({ where: { id: note.id }, data: { archived, archivedOn: archived ? new Date() : null } })
    return { action: archived ? 'note.archive' : 'note.unarchive', message: `Note '${noteExcerpt(note.content)}' ${archived ? 'archived' : 'restored'}` }
  })
  return view!
}

/** note/delete. */
export async function deleteNote(actor: Actor, organizationId: string, noteId: string): Promise<{ id: string }> {
  await changeNote(actor, organizationId, noteId, 'note.delete', async (tx, note) => {
    await tx.note.delete({ where: { id: note.id } })
    return { action: 'note.delete', message: `Note '${noteExcerpt(note.content)}' deleted`, deleted: true }
  })
  return { id: noteId }
}
