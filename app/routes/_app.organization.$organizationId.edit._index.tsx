import { redirect, type LoaderFunctionArgs } from '@remix-run/node'
import { visibleEditTabs } from '~/components/edit-tabs'
import { getOrganizationAccess } from '~/domain/access/access.server'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'

/** A bare /edit opens the first tab the user may see (Members for those who can update, else Audit Log or Settings). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const access = await domainCall(() => getOrganizationAccess(actor, params.organizationId ?? ''))
  return redirect(`/organization/${access.organization.id}/edit/${visibleEditTabs(access.capabilities())[0]!.id}`)
}
