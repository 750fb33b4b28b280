import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { AdminUsersTable } from '~/components/admin/admin-users-table'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PageHeader } from '~/components/page-header'
import { ADMIN_USERS_PAGE_SIZE, listAdminUsers } from '~/domain/admin/users-admin.server'
import { requireSiteAdmin } from '~/utils/auth.server'
import { getConfig } from '~/utils/env.server'
import { domainCall } from '~/utils/errors.server'

export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireSiteAdmin(request)
  const first = await domainCall(() => listAdminUsers(actor, { limit: ADMIN_USERS_PAGE_SIZE }))
  return { first, pageSize: ADMIN_USERS_PAGE_SIZE, selfId: actor.userId, vendorDomain: getConfig().VENDOR_EMAIL_DOMAIN }
}

export const meta: MetaFunction = () => [{ title: 'Users · Admin · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'Users', to: '.' }) }

/** Admin > Users: every account except agents', newest first, with the Disabled/Admin editor. */
export default function AdminUsers() {
  const data = useLoaderData<typeof loader>()
  return (
    <div className="space-y-4">
      <PageHeader
        title="Users"
        subtitle={`Accounts of this portal, newest first. Disabling an account signs it out everywhere at once; only verified ${data.vendorDomain} addresses can be made site admins.`}
      />
      <AdminUsersTable {...data} />
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
