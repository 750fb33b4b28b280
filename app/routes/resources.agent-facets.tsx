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

/**
 * Not with every live reload of the list: Remix revalidates loaded fetchers with the page, which
 * queried the facets again and rendered the toolbar's filters every 5 s. The toolbar loads them
 * again itself when a filter opens after the table changed (agents-toolbar.tsx).
 */
export const shouldRevalidate = () => false
