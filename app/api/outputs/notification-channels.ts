import { z } from 'zod'

const channel = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(['webhook', 'slack', 'teams']),
  typeLabel: z.string(),
  url: z.string(),
  createdAt: z.string(),
  lastDelivery: z.object({ status: z.string(), at: z.string(), statusCode: z.number().nullable() }).nullable(),
})
const delivery = z.object({
  id: z.string(),
  kind: z.string(),
  summary: z.string(),
  status: z.string(),
  attempts: z.number(),
  statusCode: z.number().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  attemptLog: z
    .array(z.object({ attempt: z.number(), statusCode: z.number().nullable(), error: z.string().nullable(), at: z.string(), durationMs: z.number() }))
    .optional(),
})

/** What each call of ../notification-channels.server.ts answers (JSON: times are ISO strings). */
export const notificationChannelsOutputs = {
  'organization/notificationChannels': z.object({ channels: z.array(channel) }),
  'organization/createNotificationChannel': z.object({ channel: channel, secret: z.string().nullable() }),
  'organization/deleteNotificationChannel': z.object({ message: z.string() }),
  'organization/testNotificationChannel': z.object({ message: z.string(), delivery: delivery.nullable() }),
  'organization/notificationChannelDeliveries': z.object({ channel: z.object({ id: z.string(), name: z.string() }), deliveries: z.array(delivery) }),
}
