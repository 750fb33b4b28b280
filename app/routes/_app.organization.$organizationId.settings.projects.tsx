import { type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { Plus } from 'lucide-react'
import { useState } from 'react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { EmptyState } from '~/components/page-header'
import { ProjectTable } from '~/components/projects/project-table'
import { Button } from '~/components/ui/button'
import { listProjects } from '~/domain/projects/projects.server'
import { useOrganization } from '~/routes/_app.organization.$organizationId'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'

/** Settings, Projects tab: the project tree to manage (create, nest, open settings, delete). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  return domainCall(() => listProjects(actor, params.organizationId!))
}

export const handle = { breadcrumb: () => ({ label: 'Projects', to: '.' }) }

export default function OrganizationProjectSettings() {
  const { projects } = useLoaderData<typeof loader>()
  const { organization, capabilities } = useOrganization()
  const [creating, setCreating] = useState(false)
  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center justify-between">
        <p className="text-sm text-muted-foreground">Projects nest: roles given on a project apply to its sub-projects too.</p>
        {capabilities.canProjectCreate ? (
          <Button onClick={() => setCreating(true)}>
            <Plus /> New Project
          </Button>
        ) : null}
      </div>
      <ProjectTable
        organizationId={organization.id}
        projects={projects}
        newProjectOpen={creating}
        onNewProjectOpenChange={setCreating}
        empty={<EmptyState title="No projects, yet." />}
      />
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
