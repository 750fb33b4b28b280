import Page, { loader as pageLoader } from './_app.organization.$organizationId.settings.roles'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { gatedEditTab } from '~/utils/edit-tab.server'

/** Edit screen, Roles tab: the Roles page itself, refused (Access denied) without the tab's right. */
export const loader = gatedEditTab('roles', pageLoader)
export default Page
export const ErrorBoundary = GeneralErrorBoundary
