import { type LoaderFunctionArgs } from '@remix-run/node'
import { agentFacets } from '~/domain/fleet/agents-table.server'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'

/** Options and counts of the agents list's faceted filters (loaded 500 ms after the table mounts). */
export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const organizationId = new URL(request.url).searchParams.get('organizationId') ?? ''
  return { facets: await domainCall(() => agentFacets(actor, organizationId)) }
}
