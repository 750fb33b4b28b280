import {
  channelDeliveries,
  channelDeliveriesInput,
  channelRefInput,
  createChannel,
  createChannelInput,
  deleteChannel,
  listChannels,
  listChannelsInput,
  testChannel,
} from '~/domain/notifications/channels/channels.server'
import { defineCall, type ApiCalls } from './registry.server'

/** Notification channels of an organization (docs/notification-channels.md); all need org.update. */
export const notificationChannelCalls: ApiCalls = {
  'organization/notificationChannels': defineCall({
    input: listChannelsInput,
    handler: ({ actor }, input) => listChannels(actor, input),
  }),
  'organization/createNotificationChannel': defineCall({
    input: createChannelInput,
    handler: ({ actor }, input) => createChannel(actor, input),
  }),
  'organization/deleteNotificationChannel': defineCall({
    input: channelRefInput,
    handler: ({ actor }, input) => deleteChannel(actor, input),
  }),
  'organization/testNotificationChannel': defineCall({
    input: channelRefInput,
    handler: ({ actor }, input) => testChannel(actor, input),
  }),
  'organization/notificationChannelDeliveries': defineCall({
    input: channelDeliveriesInput,
    handler: ({ actor }, input) => channelDeliveries(actor, input),
  }),
}
