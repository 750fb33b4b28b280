import { redirect } from '@remix-run/node'

/** An unknown settings tab shows the profile. */
export const loader = () => redirect('/settings/profile')
