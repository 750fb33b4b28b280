import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { ShieldCheck } from 'lucide-react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { EmptyState } from '~/components/page-header'
import { Card } from '~/components/ui/card'
import { listMyAccessRights } from '~/domain/members/members.server'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'

export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  return domainCall(() => listMyAccessRights(actor))
}

export const meta: MetaFunction = () => [{ title: 'Access Rights · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'Access Rights', to: '.' }) }

/** User settings, Access Rights: scope, organization/project and role of each of the user's rights. */
export default function AccessRightsTab() {
  const { accessRights, isSiteAdmin } = useLoaderData<typeof loader>()
  if (accessRights.length === 0 && !isSiteAdmin) {
    return <EmptyState title="No access rights" text="You are not a member of any organization yet. Accept an invitation or create an organization." />
  }
  return (
    <Card>
      <table className="w-full text-sm" aria-label="Access Rights">
        <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
          <tr>
            <th className="px-3 py-2 font-medium">Scope</th>
            <th className="px-3 py-2 font-medium">Organization / Project</th>
            <th className="px-3 py-2 font-medium">Role</th>
          </tr>
        </thead>
        <tbody>
          {isSiteAdmin ? (
            <tr className="border-b">
              <td className="px-3 py-2">Global</td>
              <td className="px-3 py-2 text-muted-foreground">All organizations</td>
              <td className="px-3 py-2">
                <span className="flex items-center gap-1.5 font-medium">
                  <ShieldCheck className="size-4 text-primary" /> Site administrator
                </span>
              </td>
            </tr>
          ) : null}
          {accessRights.map((r) => (
            <tr key={r.id} className="border-b last:border-0">
              <td className="px-3 py-2">{r.scope}</td>
              <td className="px-3 py-2">
                <Link to={`/organization/${r.organizationId}`} className="hover:underline">
                  {r.organizationName}
                </Link>
                {r.projectName ? (
                  <>
                    <span className="px-1 text-muted-foreground">/</span>
                    <Link to={`/organization/${r.organizationId}/projects/${r.projectId}`} className="hover:underline">
                      {r.projectName}
                    </Link>
                  </>
                ) : null}
              </td>
              <td className="px-3 py-2">{r.roleName}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
