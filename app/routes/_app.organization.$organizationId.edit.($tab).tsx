import { data, redirect, type LoaderFunctionArgs } from '@remix-run/node'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { getOrganizationAccess } from '~/domain/access/access.server'
import { type OrganizationCapabilities } from '~/domain/access/catalogue'
import { accessDenied } from '~/domain/errors'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'

/** The edit screen's tabs, each with its gate (spec 02 section 2) and the page that now hosts it. */
const EDIT_TABS: Record<string, { path: string; allowed: (c: OrganizationCapabilities) => boolean }> = {
  members: { path: 'members', allowed: (c) => c.canUpdate },
  projects: { path: 'settings/projects', allowed: (c) => c.canUpdate },
  agents: { path: 'agents', allowed: (c) => c.canUpdate },
  roles: { path: 'settings/roles', allowed: (c) => c.canUpdate && c.canUserEditRoles },
  audit: { path: 'activity', allowed: (c) => c.canAuditView },
  settings: { path: 'settings/general', allowed: () => true },
}

/** /organization/{id}/edit/{tab}: redirects to the matching page, honouring the edit screen's gates. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const organizationId = params.organizationId!
  const tab = EDIT_TABS[params.tab ?? 'settings']
  if (!tab) throw data({ message: 'Not found' }, { status: 404 })
  await domainCall(async () => {
    const access = await getOrganizationAccess(actor, organizationId)
    if (!tab.allowed(access.capabilities())) throw accessDenied()
  })
  return redirect(`/organization/${organizationId}/${tab.path}`)
}

export const handle = { breadcrumb: () => ({ label: 'Settings', to: '.' }) }

/** Never rendered (the loader always redirects); present so refusals show the Access denied page. */
export default function EditTabRedirect() {
  return null
}

export const ErrorBoundary = GeneralErrorBoundary
