import { type LoaderFunctionArgs } from '@remix-run/node'
import { renderToStaticMarkup } from 'react-dom/server'
import { READINESS_CSS, ReadinessDocument } from '~/components/readiness/readiness-document'
import { readinessCsv, readinessReport } from '~/domain/readiness/readiness.server'
import { requireUser } from '~/utils/auth.server'
import { csvLine } from '~/utils/csv'
import { domainCall } from '~/utils/errors.server'

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** Downloads of the readiness report: ?organizationId&projectId&format=csv|json|html (project.view). */
export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const params = new URL(request.url).searchParams
  const format = params.get('format') ?? 'html'
  if (!['csv', 'json', 'html'].includes(format)) return Response.json({ code: 'invalid-argument', message: 'format must be csv, json or html' }, { status: 400 })
  const report = await domainCall(() => readinessReport(actor, params.get('organizationId') ?? '', params.get('projectId') ?? ''))
  const base = `Readiness ${report.project.name} ${report.generatedAt.slice(0, 16).replace('T', ' ')}`.replace(/[\\/:*?"<>|]/g, '_')
  const headers = (type: string, ext: string) => ({
    'Content-Type': `${type}; charset=utf-8`,
    'Content-Disposition': `attachment; filename="${`${base}.${ext}`.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(`${base}.${ext}`)}`,
  })
  if (format === 'csv') return new Response(readinessCsv(report, csvLine), { headers: headers('text/csv', 'csv') })
  if (format === 'json') return new Response(JSON.stringify(report, null, 2), { headers: headers('application/json', 'json') })
  // a self-contained file: the same markup and styles as the page, printable on its own
  const body = renderToStaticMarkup(<ReadinessDocument report={report} />)
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(base)}</title><style>body{margin:24px}${READINESS_CSS}</style></head><body>${body}</body></html>`
  return new Response(html, { headers: headers('text/html', 'html') })
}
