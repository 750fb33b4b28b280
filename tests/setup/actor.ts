import { userActor } from '../../app/domain/auth/session.server'
import type { UserActor } from '../../app/domain/actor'

/**
 * The actor a signed-in person's request carries (the domain's own `userActor`), for tests that
 * call the domain directly. `isAdmin` makes a site admin; `ip` shows up in audit entries.
 */
export function actorFor(user: { id: string; email: string; name: string; isAdmin?: boolean }, ip = '10.0.0.9'): UserActor {
  return userActor({ ...user, isAdmin: Boolean(user.isAdmin) }, { ip, userAgent: 'vitest' })
}
