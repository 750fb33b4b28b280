import { z } from 'zod'
import { listSubscriptionTree, testNotification, updateSubscription, updateSubscriptionInput } from '~/domain/notifications/subscriptions.server'
import { defineCall, type ApiCalls } from './registry.server'
import { notificationsOutputs } from './outputs/notifications'

/** Notification subscription calls of spec 02 section 7 (payloads are validated by the domain). */
export const notificationCalls: ApiCalls = {
  'user/subscriptions': defineCall({
    input: z.object({}).passthrough(),
    output: notificationsOutputs['user/subscriptions'],
    handler: ({ actor }) => listSubscriptionTree(actor),
  }),
  'user/updateSubscription': defineCall({
    input: updateSubscriptionInput,
    output: notificationsOutputs['user/updateSubscription'],
    handler: ({ actor }, input) => updateSubscription(actor, input),
  }),
  'user/notificationTest': defineCall({
    input: z.object({}).passthrough(),
    output: notificationsOutputs['user/notificationTest'],
    handler: ({ actor }, input) => testNotification(actor, input),
  }),
}
