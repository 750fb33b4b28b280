import { z } from 'zod'
import { listSubscriptionTree, testNotification, updateSubscription } from '~/domain/notifications/subscriptions.server'
import { defineCall, type ApiCalls } from './registry.server'

/** Notification subscription calls of spec 02 section 7 (payloads are validated by the domain). */
export const notificationCalls: ApiCalls = {
  'user/subscriptions': defineCall({
    input: z.object({}).passthrough(),
    handler: ({ actor }) => listSubscriptionTree(actor),
  }),
  'user/updateSubscription': defineCall({
    input: z.object({}).passthrough(),
    handler: ({ actor }, input) => updateSubscription(actor, input),
  }),
  'user/notificationTest': defineCall({
    input: z.object({}).passthrough(),
    handler: ({ actor }, input) => testNotification(actor, input),
  }),
}
