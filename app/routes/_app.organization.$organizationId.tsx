import { type LoaderFunctionArgs } from '@remix-run/node'
import { Outlet, useRouteLoaderData, type UIMatch } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { type BreadcrumbHandle } from '~/components/shell/breadcrumbs'
import { getOrganizationAccess } from '~/domain/access/access.server'
import { rememberLastOrganization } from '~/domain/organizations/membership.server'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'
import { layoutShouldRevalidate } from '~/utils/live-revalidate'

/** Organization workspace layout: membership is checked here, each page checks its own permission. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, actor } = await requireUser(request)
  const organizationId = params.organizationId!
  const access = await domainCall(() => getOrganizationAccess(actor, organizationId))
  // a write per page view only when the organization changes
  if (user.lastOrganizationId !== organizationId) await rememberLastOrganization(actor, organizationId)
  return {
    organization: { id: access.organization.id, name: access.organization.name },
    capabilities: access.capabilities(),
  }
}

export type OrganizationLayoutData = Awaited<ReturnType<typeof loader>>
export const useOrganization = () => useRouteLoaderData<OrganizationLayoutData>('routes/_app.organization.$organizationId')!

export const handle: BreadcrumbHandle = {
  breadcrumb: (match: UIMatch<unknown, unknown>) => {
    const data = match.data as OrganizationLayoutData | undefined
    return data ? { label: data.organization.name, to: `/organization/${data.organization.id}` } : null
  },
}

export default function OrganizationLayout() {
  return <Outlet />
}

export const ErrorBoundary = GeneralErrorBoundary

/** Live fleet updates (agent reports) reload the page's data, not this layout's. */
export const shouldRevalidate = layoutShouldRevalidate('routes/_app.organization.$organizationId')
