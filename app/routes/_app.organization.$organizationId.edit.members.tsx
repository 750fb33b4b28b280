import Page, { loader as pageLoader } from './_app.organization.$organizationId.members'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { gatedEditTab } from '~/utils/edit-tab.server'

/** Edit screen, Members tab: the Members page itself, refused (Access denied) without the tab's right. */
export const loader = gatedEditTab('members', pageLoader)
export default Page
export const ErrorBoundary = GeneralErrorBoundary
