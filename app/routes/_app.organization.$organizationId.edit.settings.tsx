import Page, { loader as pageLoader } from './_app.organization.$organizationId.settings.general'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { gatedEditTab } from '~/utils/edit-tab.server'

/** Edit screen, Settings tab: the Settings page itself, refused (Access denied) without the tab's right. */
export const loader = gatedEditTab('settings', pageLoader)
export default Page
export const ErrorBoundary = GeneralErrorBoundary
