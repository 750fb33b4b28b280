import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { ArrowLeft, Download, FileCode2, FileJson, Printer } from 'lucide-react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { READINESS_CSS, ReadinessDocument } from '~/components/readiness/readiness-document'
import { Button } from '~/components/ui/button'
import { PAGE_DEVIATION_LIMITS, readinessPage } from '~/domain/readiness/readiness.server'
import { useOrganization } from '~/routes/_app.organization.$organizationId'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'
import { useLiveRevalidate } from '~/utils/use-live-revalidate'

/** `?deviations=more`: each baseline group lists its first PAGE_DEVIATION_LIMITS[1] deviations instead of [0] (any other value: [0]). */
const MORE_DEVIATIONS = 'more'

/** The project's pre-show readiness report: a printable page (the browser's print makes the PDF) and downloads (longer lists). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const more = new URL(request.url).searchParams.get('deviations') === MORE_DEVIATIONS
  return { more, perGroup: PAGE_DEVIATION_LIMITS, report: await domainCall(() => readinessPage(actor, params.organizationId!, params.projectId!, more)) }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Readiness report · ${data?.report.project.name ?? 'Project'} · Pixelfleet` }]
export const handle = { breadcrumb: () => ({ label: 'Readiness report', to: '.' }) }

export default function ReadinessPage() {
  const { report, more, perGroup } = useLoaderData<typeof loader>()
  const { organization } = useOrganization()
  useLiveRevalidate(organization.id, ['agent', 'system', 'issue', 'project'])
  const download = (format: string) => `/resources/readiness?${new URLSearchParams({ organizationId: organization.id, projectId: report.project.id, format })}`
  return (
    <div>
      <style>{READINESS_CSS}</style>
      <div className="rr-noprint mb-4 flex flex-wrap items-center gap-2">
        <Button asChild variant="ghost" size="sm" className="h-8">
          <Link to={`/organization/${organization.id}/projects/${report.project.id}`}>
            <ArrowLeft /> Project
          </Link>
        </Button>
        <div className="ml-auto flex flex-wrap gap-2">
          <Button size="sm" className="h-8" onClick={() => window.print()}>
            <Printer /> Print / PDF
          </Button>
          <Button asChild variant="outline" size="sm" className="h-8">
            <a href={download('csv')} download>
              <Download /> CSV
            </a>
          </Button>
          <Button asChild variant="outline" size="sm" className="h-8">
            <a href={download('json')} download>
              <FileJson /> JSON
            </a>
          </Button>
          <Button asChild variant="outline" size="sm" className="h-8">
            <a href={download('html')} download>
              <FileCode2 /> HTML
            </a>
          </Button>
        </div>
      </div>
      <ReadinessDocument
        report={report}
        deviationsControl={
          more || report.baselines.some((g) => g.deviations.length < g.deviationsTotal) ? (
            <Link className="rr-noprint text-primary underline-offset-2 hover:underline" to={more ? '.' : `?deviations=${MORE_DEVIATIONS}`} preventScrollReset>
              {more ? `List ${perGroup[0]} per product` : `List up to ${perGroup[1]} per product`}
            </Link>
          ) : null
        }
      />
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
