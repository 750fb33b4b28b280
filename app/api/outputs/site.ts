import { z } from 'zod'
import { isoTime } from './common'

/** What each call of ../site.server.ts answers (JSON: times are ISO strings). */
export const siteOutputs = {
  'admin/message': z.object({ id: z.string() }),
  'admin/messageList': z.object({
    messages: z.array(z.object({ type: z.string(), id: z.string(), createdAt: isoTime, text: z.string(), starts: isoTime, ends: isoTime })),
  }),
  'admin/messagesClear': z.object({ removed: z.number() }),
}
