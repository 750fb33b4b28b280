import { z } from 'zod'

/** What each call of ../audit.server.ts answers (JSON: times are ISO strings). */
export const auditOutputs = {
  'organization/auditList': z.object({
    records: z.array(z.object({ id: z.string(), created: z.string(), ip: z.string(), userName: z.string(), message: z.string() })),
    nextCursor: z.string().nullable(),
  }),
}
