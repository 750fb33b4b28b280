import { z } from 'zod'
import { createNote, createNoteInput, deleteNote, listNotes, setNoteArchived, updateNote, updateNoteInput } from '~/domain/notes/notes.server'
import { defineCall, type ApiCalls } from './registry.server'
import { notesOutputs } from './outputs/notes'

const organization = z.string({ required_error: 'Organization is required' }).min(1, 'Organization is required')
const noteRef = z.object({ organization, note: z.string({ required_error: 'Note is required' }).min(1, 'Note is required') })
/** Drops absent fields so the domain's own schema decides defaults and messages. */
const present = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined))

/** Note calls of spec 02 section 7: payload `organization`, `note` plus the note's fields. */
export const noteCalls: ApiCalls = {
  'note/list': defineCall({
    input: z.object({ organization, resourcePath: z.string().optional() }),
    output: notesOutputs['note/list'],
    handler: ({ actor }, input) => listNotes(actor, input.organization, { resourcePath: input.resourcePath }),
  }),
  'note/create': defineCall({
    input: createNoteInput.extend({ organization }),
    output: notesOutputs['note/create'],
    handler: async ({ actor }, { organization: org, ...fields }) => ({ note: await createNote(actor, org, present(fields)) }),
  }),
  'note/update': defineCall({
    input: updateNoteInput.merge(noteRef),
    output: notesOutputs['note/update'],
    handler: async ({ actor }, { organization: org, note, ...fields }) => ({ note: await updateNote(actor, org, note, present(fields)) }),
  }),
  'note/archive': defineCall({
    input: noteRef,
    output: notesOutputs['note/archive'],
    handler: async ({ actor }, input) => ({ note: await setNoteArchived(actor, input.organization, input.note, true) }),
  }),
  'note/unarchive': defineCall({
    input: noteRef,
    output: notesOutputs['note/unarchive'],
    handler: async ({ actor }, input) => ({ note: await setNoteArchived(actor, input.organization, input.note, false) }),
  }),
  'note/delete': defineCall({
    input: noteRef,
    output: notesOutputs['note/delete'],
    handler: async ({ actor }, input) => deleteNote(actor, input.organization, input.note),
  }),
}
