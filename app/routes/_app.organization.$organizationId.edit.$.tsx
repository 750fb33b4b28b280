import { data, type LoaderFunctionArgs } from '@remix-run/node'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { getOrganizationAccess } from '~/domain/access/access.server'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'

/** An unknown edit tab: Not found inside the shell, for members only (others get Access denied, as everywhere). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  await domainCall(() => getOrganizationAccess(actor, params.organizationId ?? ''))
  throw data({ message: 'Not found' }, { status: 404 })
}

export default function UnknownEditTab() {
  return null
}

export const ErrorBoundary = GeneralErrorBoundary
