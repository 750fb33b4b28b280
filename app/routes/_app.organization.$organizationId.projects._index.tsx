import { type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { FolderTree, Plus } from 'lucide-react'
import { useState } from 'react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { EmptyState, PageHeader } from '~/components/page-header'
import { ProjectTable } from '~/components/projects/project-table'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { projectSystemTags } from '~/domain/fleet/project-systems.server'
import { listProjects } from '~/domain/projects/projects.server'
import { useOrganization } from '~/routes/_app.organization.$organizationId'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
  // The domain decides: org.view, or a project role (the list then holds only the projects one may view).
  const { actor } = await requireUser(request)
  const organizationId = params.organizationId!
  const [list, systemTags] = await domainCall(() => Promise.all([listProjects(actor, organizationId), projectSystemTags(actor, organizationId)]))
  return { ...list, systemTags }
}

export const handle = { breadcrumb: () => ({ label: 'Projects', to: '.' }) }

export default function ProjectsPage() {
  const { projects, systems, systemTags } = useLoaderData<typeof loader>()
  const { organization, capabilities } = useOrganization()
  const [creating, setCreating] = useState(false)
  const newProject = capabilities.canProjectCreate ? (
    <Button onClick={() => setCreating(true)}>
      <Plus /> New Project
    </Button>
  ) : null
  return (
    <div>
      <PageHeader
        title="Projects"
        subtitle="Organize your systems into nested projects"
        actions={
          <>
            <Badge variant="outline" className="h-7 px-2 text-xs" title="Systems in total over unassigned systems">
              Systems {systems.total} / {systems.unassigned} unassigned
            </Badge>
            {newProject}
          </>
        }
      />
      <ProjectTable
        organizationId={organization.id}
        projects={projects}
        systemTags={systemTags}
        newProjectOpen={creating}
        onNewProjectOpenChange={setCreating}
        empty={
          <EmptyState
            icon={<FolderTree className="size-8" />}
            title="No Projects Available"
            text={capabilities.canProjectCreate ? 'Create a project to organize the systems of this organization.' : "Contact an organization admin to grant access to this organization's projects."}
            action={
              capabilities.canProjectCreate ? (
                <Button variant="link" onClick={() => setCreating(true)}>
                  Create a project
                </Button>
              ) : null
            }
          />
        }
      />
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
