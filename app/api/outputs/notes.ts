import { z } from 'zod'
import { isoTime } from './common'

const note = z.object({
  id: z.string(),
  organizationId: z.string(),
  content: z.string(),
  color: z.enum(['yellow', 'blue', 'red', 'green', 'orange']),
  resourcePath: z.string(),
  resourceDisplayName: z.string(),
  authorId: z.string(),
  authorName: z.string(),
  archived: z.boolean(),
  archivedOn: isoTime.nullable(),
  created: isoTime,
  updated: isoTime,
  canUpdate: z.boolean(),
  canArchive: z.boolean(),
  canUnarchive: z.boolean(),
  canDelete: z.boolean(),
})
const noteAnswer = z.object({ note })

/** What each call of ../notes.server.ts answers (JSON: times are ISO strings). */
export const notesOutputs = {
  'note/list': z.object({ notes: z.array(note), canCreate: z.boolean() }),
  'note/create': noteAnswer,
  'note/update': noteAnswer,
  'note/archive': noteAnswer,
  'note/unarchive': noteAnswer,
  'note/delete': z.object({ id: z.string() }),
}
