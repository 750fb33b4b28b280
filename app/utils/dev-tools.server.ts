import { data } from '@remix-run/node'
import { getCurrentUser, type CurrentUser } from './auth.server'
import { getConfig } from './env.server'

/** Developer pages (/dev/...) exist outside production, or when PIXELFLEET_DEV_PAGES=true. */
export const devToolsEnabled = () => getConfig().NODE_ENV !== 'production' || process.env.PIXELFLEET_DEV_PAGES === 'true'

/**
 * Every /dev page's loader starts here: anyone but a site admin (anonymous included) is refused
 * with 403 even where the pages are enabled, since they show other people's e-mail and links.
 * For site admins the pages are absent (404) unless enabled.
 */
export async function requireDevPage(request: Request): Promise<CurrentUser> {
  const current = await getCurrentUser(request)
  if (!current?.user.isAdmin) throw data({ message: 'Access denied' }, { status: 403 })
  if (!devToolsEnabled()) throw data({ message: 'Not found' }, { status: 404 })
  return current
}
