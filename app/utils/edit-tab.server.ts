import { type LoaderFunctionArgs } from '@remix-run/node'
import { EDIT_TABS, type EditTabId } from '~/components/edit-tabs'
import { getOrganizationAccess } from '~/domain/access/access.server'
import { accessDenied } from '~/domain/errors'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'

/**
 * Refuses an edit-screen tab the user may not see (Access denied), whatever the URL, then runs the
 * loader of the page the tab reuses.
 */
export function gatedEditTab<T>(tab: EditTabId, pageLoader: (args: LoaderFunctionArgs) => Promise<T>) {
  return async (args: LoaderFunctionArgs): Promise<T> => {
    const { actor } = await requireUser(args.request)
    await domainCall(async () => {
      const access = await getOrganizationAccess(actor, args.params.organizationId ?? '')
      if (!EDIT_TABS.find((t) => t.id === tab)!.allowed(access.capabilities())) throw accessDenied()
    })
    return pageLoader(args)
  }
}
