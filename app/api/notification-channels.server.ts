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
import { notificationChannelsOutputs } from './outputs/notification-channels'

/** Notification channels of an organization (docs/notification-channels.md); all need org.update. */
export const notificationChannelCalls: ApiCalls = {
  'organization/notificationChannels': defineCall({
    input: listChannelsInput,
    output: notificationChannelsOutputs['organization/notificationChannels'],
    handler: ({ actor }, input) => listChannels(actor, input),
  }),
  'organization/createNotificationChannel': defineCall({
    input: createChannelInput,
    output: notificationChannelsOutputs['organization/createNotificationChannel'],
    handler: ({ actor }, input) => createChannel(actor, input),
  }),
  'organization/deleteNotificationChannel': defineCall({
    input: channelRefInput,
    output: notificationChannelsOutputs['organization/deleteNotificationChannel'],
    handler: ({ actor }, input) => deleteChannel(actor, input),
  }),
  'organization/testNotificationChannel': defineCall({
    input: channelRefInput,
    output: notificationChannelsOutputs['organization/testNotificationChannel'],
    handler: ({ actor }, input) => testChannel(actor, input),
  }),
  'organization/notificationChannelDeliveries': defineCall({
    input: channelDeliveriesInput,
    output: notificationChannelsOutputs['organization/notificationChannelDeliveries'],
    handler: ({ actor }, input) => channelDeliveries(actor, input),
  }),
}
