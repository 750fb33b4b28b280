import { Outlet } from '@remix-run/react'
import { visibleEditTabs } from '~/components/edit-tabs'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PageHeader } from '~/components/page-header'
import { LinkTabs } from '~/components/ui/tabs'
import { useOrganization } from '~/routes/_app.organization.$organizationId'

/** /organization/{id}/edit/{tab}: the edit screen, its tabs mirrored in the URL (breadcrumb 'Settings'). */
export const handle = { breadcrumb: () => ({ label: 'Settings', to: '.' }) }

export default function OrganizationEditLayout() {
  const { organization, capabilities } = useOrganization()
  const tabs = visibleEditTabs(capabilities).map((t) => ({ to: `/organization/${organization.id}/edit/${t.id}`, label: t.label }))
  return (
    <div>
      <PageHeader title="Settings" subtitle={`Edit ${organization.name}`} />
      <LinkTabs className="mb-5 relative overflow-x-auto" tabs={tabs} />
      <Outlet />
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
