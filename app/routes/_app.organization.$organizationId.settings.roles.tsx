import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { RolesManager } from '~/components/roles/roles-manager'
import { listRoles } from '~/domain/roles/roles.server'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'

/** Organization settings, Member Roles tab: the organization's roles plus the global ones. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  return domainCall(() => listRoles(actor, params.organizationId ?? ''))
}

export const meta: MetaFunction = () => [{ title: 'Member Roles · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'Member Roles', to: '.' }) }

export default function OrganizationRolesTab() {
  return <RolesManager data={useLoaderData<typeof loader>()} />
}

export const ErrorBoundary = GeneralErrorBoundary
