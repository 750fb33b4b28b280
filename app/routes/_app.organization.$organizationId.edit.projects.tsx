import Page, { loader as pageLoader } from './_app.organization.$organizationId.settings.projects'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { gatedEditTab } from '~/utils/edit-tab.server'

/** Edit screen, Projects tab: the Projects page itself, refused (Access denied) without the tab's right. */
export const loader = gatedEditTab('projects', pageLoader)
export default Page
export const ErrorBoundary = GeneralErrorBoundary
