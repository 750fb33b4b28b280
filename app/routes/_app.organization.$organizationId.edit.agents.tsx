import Page, { loader as pageLoader } from './_app.organization.$organizationId.agents._index'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { gatedEditTab } from '~/utils/edit-tab.server'

/** Edit screen, Agents tab: the Agents page itself, refused (Access denied) without the tab's right. */
export const loader = gatedEditTab('agents', pageLoader)
export default Page
export const ErrorBoundary = GeneralErrorBoundary
