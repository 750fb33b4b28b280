import { type ApiCalls } from './registry.server'
import { authCalls } from './auth.server'
import { userCalls } from './users.server'

/** Every /client/v1 call by name. Each concern keeps its calls in its own module. */
export const apiCalls: ApiCalls = {
  ...authCalls,
  ...userCalls,
}
