import { z } from 'zod'
import { clearSiteMessages, createSiteMessage, listSiteMessages, siteMessageInput } from '~/domain/site/messages.server'
import { defineCall, type ApiCalls } from './registry.server'
import { siteOutputs } from './outputs/site'

/** Site-administrator calls (spec 01 section 7). */
export const siteCalls: ApiCalls = {
  'admin/message': defineCall({
    input: siteMessageInput,
    output: siteOutputs['admin/message'],
    handler: ({ actor }, input) => createSiteMessage(actor, input),
  }),
  /** Every site message, latest start first (the CLI's `admin messages list`). */
  'admin/messageList': defineCall({
    input: z.object({}),
    output: siteOutputs['admin/messageList'],
    handler: async ({ actor }) => ({ messages: await listSiteMessages(actor) }),
  }),
  'admin/messagesClear': defineCall({
    input: z.object({}),
    output: siteOutputs['admin/messagesClear'],
    handler: ({ actor }) => clearSiteMessages(actor),
  }),
}
