import { type LoaderFunctionArgs } from '@remix-run/node'
import { NavLink, Outlet, useLoaderData } from '@remix-run/react'
import { LogOut } from 'lucide-react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { VERSION_TEXT } from '~/domain/site/cloud-state.server'
import { requireSiteAdmin } from '~/utils/auth.server'
import { cn } from '~/utils/cn'

/** Site-administrator area: users without the admin claim are sent to /. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireSiteAdmin(request)
  return { version: VERSION_TEXT, revision: process.env.PIXELFLEET_REVISION ?? 'local', branch: process.env.PIXELFLEET_BRANCH ?? 'main' }
}

export const handle = { breadcrumb: () => ({ label: 'Admin', to: '/admin/site' }) }

const links = [
  ['/admin/site', 'General'],
  ['/admin/orgs', 'Organizations'],
  ['/admin/users', 'Users'],
  ['/admin/roles', 'Roles'],
  ['/admin/agents', 'Agents'],
  ['/admin/sessions', 'Sessions'],
  ['/admin/mail', 'Mail'],
  ['/admin/utility', 'Utility'],
] as const

export default function AdminLayout() {
  const { version, revision, branch } = useLoaderData<typeof loader>()
  return (
    <div className="flex flex-col gap-4 md:flex-row md:gap-6">
      {/* a wrapping row of links above the content on narrow screens, a column beside it from md up */}
      <nav className="flex shrink-0 flex-row flex-wrap gap-0.5 md:w-44 md:flex-col" aria-label="Admin">
        {links.map(([to, label]) => (
          <NavLink key={to} to={to} className={({ isActive }) => cn('rounded-md px-2 py-1.5 text-sm hover:bg-accent', isActive && 'bg-accent font-medium')}>
            {label}
          </NavLink>
        ))}
        <NavLink to="/" className="flex items-center gap-1.5 rounded-md px-2 py-1.5 text-sm text-muted-foreground hover:bg-accent md:mt-3">
          <LogOut className="size-4" /> Exit Admin
        </NavLink>
      </nav>
      <div className="min-w-0 flex-1">
        <p className="mb-3 text-xs text-muted-foreground">
          Build {version} · revision {revision} · branch {branch}
        </p>
        <Outlet />
      </div>
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
