import { type LoaderFunctionArgs } from '@remix-run/node'
import { Link, Outlet, useRouteLoaderData, type UIMatch } from '@remix-run/react'
import { ClipboardCheck } from 'lucide-react'
import { Button } from '~/components/ui/button'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PageHeader } from '~/components/page-header'
import { type BreadcrumbHandle } from '~/components/shell/breadcrumbs'
import { LinkTabs } from '~/components/ui/tabs'
import { getProject } from '~/domain/projects/projects.server'
import { WindowBanner } from '~/components/alarms/window-banner'
import { activeWindows } from '~/domain/alarms/windows.server'
import { useOrganization } from '~/routes/_app.organization.$organizationId'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'
import { layoutShouldRevalidate } from '~/utils/live-revalidate'

/** Project page layout: the project, its visible parent chain (breadcrumb) and capability flags. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const project = await domainCall(() => getProject(actor, params.organizationId!, params.projectId!))
  // Show/maintenance windows in progress (banner); a metrics-only viewer without project.view sees none.
  const active = project.capabilities.canView ? await domainCall(() => activeWindows(actor, params.organizationId!, params.projectId!)) : null
  return { project, windows: active ? [...active] : [], windowsChangeAt: active?.changesAt ?? null }
}

export type ProjectLayoutData = Awaited<ReturnType<typeof loader>>
export const useProject = () => useRouteLoaderData<ProjectLayoutData>('routes/_app.organization.$organizationId.projects.$projectId')!.project

export const handle: BreadcrumbHandle = {
  breadcrumb: (match: UIMatch<unknown, unknown>) => {
    const data = match.data as ProjectLayoutData | undefined
    return data ? data.project.chain.map((p) => ({ label: p.name, to: p.linkTo })) : null
  },
}

export default function ProjectLayout() {
  const project = useProject()
  const { windows, windowsChangeAt } = useRouteLoaderData<ProjectLayoutData>('routes/_app.organization.$organizationId.projects.$projectId')!
  const caps = project.capabilities
  const { capabilities: organizationCaps } = useOrganization()
  const tabs = [
    caps.canMetricsView && { to: 'overview', label: 'Overview' },
    caps.canView && { to: 'agents', label: 'Agents' },
    caps.canView && { to: 'devices', label: 'Devices' },
    caps.canView && { to: 'issues', label: 'Issues' },
    // the project log is open to who can update the project and to organization auditors
    (caps.canUpdate || organizationCaps.canAuditView) && { to: 'audit', label: 'Activity' },
    caps.canUpdate && { to: 'settings', label: 'Settings' },
  ].filter((t): t is { to: string; label: string } => Boolean(t))
  return (
    <div>
      <PageHeader
        title={project.name}
        subtitle={project.description || undefined}
        actions={
          caps.canView ? (
            <Button asChild variant="outline" size="sm">
              <Link to={`${project.linkTo}/readiness`}>
                <ClipboardCheck /> Readiness report
              </Link>
            </Button>
          ) : null
        }
      />
      <WindowBanner windows={windows} changesAt={windowsChangeAt} />
      <LinkTabs className="mb-4" tabs={tabs.map((t) => ({ ...t, to: `${project.linkTo}/${t.to}` }))} />
      <Outlet />
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary

/** Live fleet updates (agent reports) reload the page's data, not this layout's. */
export const shouldRevalidate = layoutShouldRevalidate('routes/_app.organization.$organizationId.projects.$projectId')
