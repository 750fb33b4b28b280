import { z } from 'zod'
import { clearSiteMessages, createSiteMessage } from '~/domain/site/messages.server'
import { defineCall, type ApiCalls } from './registry.server'

/** Site-administrator calls (spec 01 section 7). */
export const siteCalls: ApiCalls = {
  'admin/message': defineCall({
    input: z.object({ text: z.unknown(), type: z.unknown(), starts: z.unknown(), ends: z.unknown() }),
    handler: ({ actor }, input) => createSiteMessage(actor, input),
  }),
  'admin/messagesClear': defineCall({
    input: z.object({}).passthrough(),
    handler: ({ actor }) => clearSiteMessages(actor),
  }),
}
