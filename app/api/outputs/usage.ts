import { z } from 'zod'
import { isoTime } from './common'

/** What each call of ../usage.server.ts answers (JSON: times are ISO strings). */
export const usageOutputs = {
  'organization/events': z.object({
    events: z.array(
      z.object({
        id: z.string(),
        type: z.string(),
        created: isoTime,
        agentId: z.string(),
        agentName: z.string(),
        systemId: z.string().nullable(),
        systemName: z.string().nullable(),
        projects: z.array(z.object({ id: z.string(), name: z.string() })),
      })
    ),
    nextCursor: z.string().nullable(),
  }),
}
