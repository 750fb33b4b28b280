import { profileUpdateInput, updateProfile } from '~/domain/users/profile.server'
import { defineCall, type ApiCalls } from './registry.server'
import { usersOutputs } from './outputs/users'

/** User calls of spec 02 section 7. */
export const userCalls: ApiCalls = {
  'user/updateProfile': defineCall({
    input: profileUpdateInput,
    output: usersOutputs['user/updateProfile'],
    handler: ({ actor }, input) => updateProfile(actor, input),
  }),
}
