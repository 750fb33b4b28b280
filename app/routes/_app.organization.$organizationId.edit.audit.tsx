import Page, { loader as pageLoader } from './_app.organization.$organizationId.activity'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { gatedEditTab } from '~/utils/edit-tab.server'

/** Edit screen, Audit Log tab: the Audit Log page itself, refused (Access denied) without the tab's right. */
export const loader = gatedEditTab('audit', pageLoader)
export default Page
export const ErrorBoundary = GeneralErrorBoundary
