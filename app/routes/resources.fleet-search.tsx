import { type LoaderFunctionArgs } from '@remix-run/node'
import { fleetSearch } from '~/domain/fleet/dashboard.server'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'

/** The dashboard's live search. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const params = new URL(request.url).searchParams
  return { results: await domainCall(() => fleetSearch(actor, params.get('organizationId') ?? '', (params.get('q') ?? '').slice(0, 100))) }
}
