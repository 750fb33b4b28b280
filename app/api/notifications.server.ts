import { z } from 'zod'
import { listSubscriptionTree, testNotification, testNotificationInput, updateSubscription, updateSubscriptionInput } from '~/domain/notifications/subscriptions.server'
import { defineCall, type ApiCalls } from './registry.server'
import { notificationsOutputs } from './outputs/notifications'

/** Notification subscription calls of spec 02 section 7 (the domain's input schemas; the domain checks them again for the web forms). */
export const notificationCalls: ApiCalls = {
  'user/subscriptions': defineCall({
    input: z.object({}),
    output: notificationsOutputs['user/subscriptions'],
    handler: ({ actor }) => listSubscriptionTree(actor),
  }),
  'user/updateSubscription': defineCall({
    input: updateSubscriptionInput,
    output: notificationsOutputs['user/updateSubscription'],
    handler: ({ actor }, input) => updateSubscription(actor, input),
  }),
  'user/notificationTest': defineCall({
    input: testNotificationInput,
    output: notificationsOutputs['user/notificationTest'],
    handler: ({ actor }, input) => testNotification(actor, input),
  }),
}
