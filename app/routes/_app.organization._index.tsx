import { redirect, type LoaderFunctionArgs } from '@remix-run/node'
import { requireUser } from '~/utils/auth.server'

/** /organization: the profile default when it is a 20-character id, else the list. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request)
  const preferred = user.preferenceDefaultOrg
  return redirect(preferred && preferred.length === 20 ? `/organization/${preferred}` : '/organization/list')
}
