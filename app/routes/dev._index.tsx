import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { ChevronRight, Inbox } from 'lucide-react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PageHeader } from '~/components/page-header'
import { getCurrentUser } from '~/utils/auth.server'
import { devToolsEnabled } from '~/utils/dev-tools.server'

export const meta: MetaFunction = () => [{ title: 'Developer pages · Pixelfleet' }]

/** Every developer page, for the index. Each page's loader refuses non-admins itself. */
const DEV_PAGES = [{ to: '/dev/mail', title: 'Mail outbox', text: 'Every e-mail the portal sent or stored, newest first, with clickable links.', icon: Inbox }]

/**
 * /dev: the developer index, for site admins only (linked from the sidebar for them). It also
 * exists where the pages are off, to say how to turn them on.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const current = await getCurrentUser(request)
  if (!current?.user.isAdmin) throw data({ message: 'Access denied' }, { status: 403 })
  return { enabled: devToolsEnabled() }
}

export default function DevIndex() {
  const { enabled } = useLoaderData<typeof loader>()
  return (
    <div className="mx-auto max-w-4xl px-6 py-6">
      <PageHeader title="Developer pages" subtitle="Tools for developing and operating the portal. Site administrators only." />
      {!enabled ? (
        <p className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900" role="status">
          Developer pages are off in production. Start the portal with <code className="font-mono">PIXELFLEET_DEV_PAGES=true</code> (or{' '}
          <code className="font-mono">npm run dev</code>) to use them.
        </p>
      ) : null}
      <ul className="divide-y rounded-lg border bg-card shadow-sm" aria-label="Developer pages">
        {DEV_PAGES.map((p) => (
          <li key={p.to}>
            <Link to={p.to} className="flex items-center gap-3 px-4 py-3 hover:bg-muted/40">
              <p.icon className="size-5 shrink-0 text-muted-foreground" />
              <span className="min-w-0 flex-1">
                <span className="block text-sm font-medium">{p.title}</span>
                <span className="block text-xs text-muted-foreground">
                  <code className="font-mono">{p.to}</code> · {p.text}
                </span>
              </span>
              <ChevronRight className="size-4 text-muted-foreground" />
            </Link>
          </li>
        ))}
      </ul>
      <p className="mt-6 text-xs text-muted-foreground">
        <Link to="/" className="text-primary hover:underline">
          Back to the portal
        </Link>
      </p>
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
