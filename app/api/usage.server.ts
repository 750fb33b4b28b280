import { z } from 'zod'
import { listAgentEvents } from '~/domain/usage/events.server'
import { defineCall, type ApiCalls } from './registry.server'
import { usageOutputs } from './outputs/usage'

/** Metric events reads of spec 02 section 7: organization id, page size and the previous page's token. */
export const usageCalls: ApiCalls = {
  'organization/events': defineCall({
    input: z.object({ id: z.string().min(1, 'Organization is required'), limit: z.number().int().optional(), pageToken: z.string().nullish() }),
    output: usageOutputs['organization/events'],
    handler: ({ actor }, input) => listAgentEvents(actor, input.id, { cursor: input.pageToken, limit: input.limit }),
  }),
}
