import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { createNote, deleteNote, listNotes, setNoteArchived, updateNote } from '~/domain/notes/notes.server'
import { invalid } from '~/domain/errors'
import { requireUser } from '~/utils/auth.server'
import { domainCall, formAction } from '~/utils/errors.server'
import { readForm } from '~/utils/form.server'

/**
 * Notes of one page for the notes panel (GET ?organizationId=&path=) and every note change
 * (POST with an intent), used by the panel and the Notes page alike.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const url = new URL(request.url)
  const organizationId = url.searchParams.get('organizationId') ?? ''
  const path = url.searchParams.get('path')
  return domainCall(() => listNotes(actor, organizationId, { resourcePath: path }))
}

const intentSchema = z.enum(['create', 'update', 'archive', 'unarchive', 'delete'])
const SUCCESS: Record<z.infer<typeof intentSchema>, string> = {
  create: 'Note created',
  update: 'Note updated',
  archive: 'Note archived',
  unarchive: 'Note restored',
  delete: 'Note deleted',
}

export async function action({ request }: ActionFunctionArgs) {
  const { actor } = await requireUser(request)
  const form = await readForm(request)
  const organizationId = form.organizationId ?? ''
  const noteId = form.noteId ?? ''
  const parsed = intentSchema.safeParse(form.intent)
  const intent = parsed.success ? parsed.data : null
  return formAction(async () => {
    switch (intent) {
      case 'create':
        return createNote(actor, organizationId, { content: form.content, color: form.color, resourcePath: form.resourcePath, resourceDisplayName: form.resourceDisplayName })
      case 'update':
        return updateNote(actor, organizationId, noteId, { content: form.content, color: form.color })
      case 'archive':
      case 'unarchive':
        return setNoteArchived(actor, organizationId, noteId, intent === 'archive')
      case 'delete':
        return deleteNote(actor, organizationId, noteId)
      default:
        throw invalid('Unknown note action')
    }
  }, intent ? SUCCESS[intent] : undefined)
}
