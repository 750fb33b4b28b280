import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { revokeSession } from '~/domain/auth/session.server'
import { clearSessionCookie, readSessionToken } from '~/utils/auth.server'

export async function action({ request }: ActionFunctionArgs) {
  const token = await readSessionToken(request)
  if (token) await revokeSession(token)
  return redirect('/login', { headers: { 'Set-Cookie': await clearSessionCookie(request) } })
}

export const loader = () => redirect('/')
