import { type LoaderFunctionArgs } from '@remix-run/node'
import { Outlet, useLoaderData, useParams } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { NotesButton, NotesPanel, NotesProvider } from '~/components/notes/notes-panel'
import { Breadcrumbs } from '~/components/shell/breadcrumbs'
import { MobileNav } from '~/components/shell/mobile-nav'
import { Sidebar, type ShellCapabilities } from '~/components/shell/sidebar'
import { SiteBanner } from '~/components/shell/site-banner'
import { ShortcutHelp } from '~/components/shell/shortcut-help'
import { ThemeMenu } from '~/components/shell/theme-menu'
import { type OrganizationCapabilities } from '~/domain/access/catalogue'
import { resolveActiveOrganization } from '~/domain/organizations/membership.server'
import { useRootData } from '~/root'
import { requireUser } from '~/utils/auth.server'
import { layoutShouldRevalidate } from '~/utils/live-revalidate'

/** The signed-in application shell: sidebar, banner, breadcrumbs. Every child route needs a user. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, actor } = await requireUser(request)
  const { organizations, active } = await resolveActiveOrganization(actor, params.organizationId, user)
  return {
    sidebarCollapsed: user.preferenceSidebarCollapsed,
    organizations,
    // the rights the shell shows (its links and the notes panel), not all of them: this data goes into every page
    active: active ? { id: active.id, name: active.name, capabilities: shellCapabilities(active.capabilities) } : null,
  }
}

function shellCapabilities(c: OrganizationCapabilities): ShellCapabilities {
  return {
    canMetricsView: c.canMetricsView,
    canListProjects: c.canListProjects,
    canListAgents: c.canListAgents,
    canAgentEnroll: c.canAgentEnroll,
    canAuditView: c.canAuditView,
    canListMembers: c.canListMembers,
    canListNotes: c.canListNotes,
  }
}

export default function AppShell() {
  const data = useLoaderData<typeof loader>()
  const root = useRootData()
  const { organizationId } = useParams()
  // The notes panel exists inside an organization, for users who may list its notes.
  const notesOrganizationId = organizationId && data.active?.id === organizationId && data.active.capabilities.canListNotes ? organizationId : null
  if (!root?.user) return null
  const sidebar = {
    collapsed: data.sidebarCollapsed,
    user: root.user,
    organizations: data.organizations,
    active: data.active,
    instanceName: root.instanceName,
    dashboardsEnabled: root.features.dashboards,
  }
  return (
    <div className="flex h-screen flex-col">
      <SiteBanner messages={root.siteMessages} />
      <div className="flex min-h-0 flex-1">
        <Sidebar {...sidebar} />
        <NotesProvider organizationId={notesOrganizationId}>
          <div className="flex min-w-0 flex-1 flex-col">
            <header className="flex h-12 shrink-0 items-center gap-3 border-b bg-card px-3 md:px-5">
              <MobileNav {...sidebar} />
              <Breadcrumbs />
              <div id="header-actions" className="ml-auto flex items-center gap-2" />
              <ThemeMenu />
              <NotesButton />
            </header>
            <div className="flex min-h-0 flex-1">
              <main id="main-content" tabIndex={-1} className="min-h-0 min-w-0 flex-1 overflow-y-auto px-3 py-4 outline-none md:px-6 md:py-5">
                <Outlet />
              </main>
              <NotesPanel />
            </div>
          </div>
          <ShortcutHelp />
        </NotesProvider>
      </div>
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary

/** Live fleet updates (agent reports) reload the page's data, not this layout's. */
export const shouldRevalidate = layoutShouldRevalidate('routes/_app')
