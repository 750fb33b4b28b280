import { type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { OrgDetail } from '~/components/admin-orgs/org-detail'
import { OrgsList } from '~/components/admin-orgs/orgs-list'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { getOrgAdmin, listOrgsAdmin } from '~/domain/admin/orgs-admin.server'
import { requireSiteAdmin } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'

/** Organizations (20 per page) and, with ?orgId=, one organization's detail. Site admins only. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireSiteAdmin(request)
  const url = new URL(request.url)
  const orgId = url.searchParams.get('orgId')
  if (orgId) {
    const org = await domainCall(() => getOrgAdmin(actor, orgId))
    return { kind: 'detail' as const, org, tab: url.searchParams.get('tab') ?? 'billing' }
  }
  const pageToken = url.searchParams.get('pageToken')
  const page = await domainCall(() => listOrgsAdmin(actor, { pageToken }))
  return { kind: 'list' as const, page, pageToken }
}

export const handle = { breadcrumb: () => ({ label: 'Organizations', to: '/admin/orgs' }) }

export default function AdminOrganizations() {
  const data = useLoaderData<typeof loader>()
  if (data.kind === 'detail') return <OrgDetail org={data.org} tab={data.tab} />
  return <OrgsList page={data.page} pageToken={data.pageToken} />
}

export const ErrorBoundary = GeneralErrorBoundary
