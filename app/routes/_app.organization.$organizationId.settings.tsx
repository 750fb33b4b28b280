import { Outlet } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PageHeader } from '~/components/page-header'
import { LinkTabs } from '~/components/ui/tabs'
import { useOrganization } from '~/routes/_app.organization.$organizationId'

/** Organization settings: tabs General, Member Roles, Projects, Billing (with billing view), Admin. */
export const handle = { breadcrumb: () => ({ label: 'Settings', to: '.' }) }

export default function OrganizationSettingsLayout() {
  const { organization, capabilities } = useOrganization()
  const base = `/organization/${organization.id}/settings`
  const tabs = [
    { to: `${base}/general`, label: 'General' },
    { to: `${base}/roles`, label: 'Member Roles' },
    { to: `${base}/projects`, label: 'Projects' },
    ...(capabilities.canBillingView ? [{ to: `${base}/billing`, label: 'Billing' }] : []),
    ...(capabilities.canUpdate ? [{ to: `${base}/tokens`, label: 'Service Tokens' }] : []),
    ...(capabilities.canUpdate ? [{ to: `${base}/channels`, label: 'Notification Channels' }] : []),
    { to: `${base}/admin`, label: 'Admin' },
  ]
  return (
    <div>
      <PageHeader title="Settings" subtitle={`Manage ${organization.name}`} />
      <LinkTabs className="mb-5" tabs={tabs} />
      <Outlet />
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
