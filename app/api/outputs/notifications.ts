import { z } from 'zod'

const subscription = z.object({
  id: z.string(),
  level: z.enum(['organization', 'project', 'default']),
  target: z.string(),
  alerts: z.number(),
  deviations: z.number(),
  channelId: z.string().nullable(),
  /** one message when an alarm it told about clears */
  notifyResolved: z.boolean(),
  /** repeat while an alarm stays active and unacknowledged: 0 = never, else minutes */
  repeatMinutes: z.number(),
})

/** What each call of ../notifications.server.ts answers (JSON: times are ISO strings). */
export const notificationsOutputs = {
  'user/subscriptions': z.object({
    default: subscription.nullable(),
    organizations: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        subscription: subscription.nullable(),
        projects: z.array(
          z.object({ id: z.string(), name: z.string(), parentId: z.string().nullable(), depth: z.number(), subscription: subscription.nullable() })
        ),
        channels: z.array(z.object({ id: z.string(), name: z.string(), type: z.enum(['webhook', 'slack', 'teams']) })),
      })
    ),
  }),
  'user/updateSubscription': z.object({ subscription: subscription.nullable() }),
  'user/notificationTest': z.object({ message: z.string() }),
}
