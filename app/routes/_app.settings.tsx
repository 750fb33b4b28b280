import { type LoaderFunctionArgs } from '@remix-run/node'
import { Outlet } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PageHeader } from '~/components/page-header'
import { LinkTabs } from '~/components/ui/tabs'
import { requireUser } from '~/utils/auth.server'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request)
  return null
}

export const handle = { breadcrumb: () => ({ label: 'Settings', to: '/settings/profile' }) }

const TABS = [
  { to: '/settings/profile', label: 'Profile' },
  { to: '/settings/preferences', label: 'Preferences' },
  { to: '/settings/notifications', label: 'Notifications' },
  { to: '/settings/acl', label: 'Access Rights' },
  { to: '/settings/invites', label: 'Invites' },
  { to: '/settings/activity', label: 'Activity' },
  { to: '/settings/tokens', label: 'API Tokens' },
]

/** User settings (/settings/{tab}): the user's own profile, preferences and access. */
export default function UserSettingsLayout() {
  return (
    <div className="max-w-5xl">
      <PageHeader title="User Settings" subtitle="Your account, preferences and access across organizations." />
      <LinkTabs tabs={TABS} className="mb-5" />
      <Outlet />
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
