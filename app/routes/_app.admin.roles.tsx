import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PageHeader } from '~/components/page-header'
import { RolesManager } from '~/components/roles/roles-manager'
import { listRoles } from '~/domain/roles/roles.server'
import { requireSiteAdmin } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'

/** Admin Roles: global roles (available in every organization), role checks and ACL recompiles. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireSiteAdmin(request)
  return domainCall(() => listRoles(actor, ''))
}

export const meta: MetaFunction = () => [{ title: 'Roles · Admin · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'Roles', to: '.' }) }

export default function AdminRolesPage() {
  return (
    <div>
      <PageHeader title="Roles" subtitle="Global roles are available in every organization" />
      <RolesManager data={useLoaderData<typeof loader>()} />
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
