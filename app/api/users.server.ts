import { z } from 'zod'
import { updateProfile } from '~/domain/users/profile.server'
import { defineCall, type ApiCalls } from './registry.server'
import { usersOutputs } from './outputs/users'

/** User calls of spec 02 section 7. */
export const userCalls: ApiCalls = {
  'user/updateProfile': defineCall({
    input: z.object({}).passthrough(),
    output: usersOutputs['user/updateProfile'],
    handler: ({ actor }, input) => updateProfile(actor, input),
  }),
}
