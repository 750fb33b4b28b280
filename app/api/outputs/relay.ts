import { z } from 'zod'

/** What each call of ../relay.server.ts answers (JSON: times are ISO strings). */
export const relayOutputs = {
  relay: z.object({ proxy: z.string() }),
}
