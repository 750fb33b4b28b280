import { redirect } from '@remix-run/node'

/** /settings opens the Profile tab. */
export const loader = () => redirect('/settings/profile')
