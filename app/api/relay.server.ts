import { z } from 'zod'
import { relayBaseAddress } from '~/domain/relay/address.server'
import { defineCall, type ApiCalls } from './registry.server'
import { relayOutputs } from './outputs/relay'

/** `relay` (spec 01 section 7): where the browser finds the relay; it then POSTs {proxy}/login itself. */
export const relayCalls: ApiCalls = {
  relay: defineCall({
    input: z.object({}),
    output: relayOutputs['relay'],
    handler: async ({ request }) => ({ proxy: relayBaseAddress(request.url) }),
  }),
}
