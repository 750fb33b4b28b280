import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { History } from 'lucide-react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { EmptyState } from '~/components/page-header'
import { Card, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { listLoginHistory } from '~/domain/users/login-history.server'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'

export async function loader({ request }: LoaderFunctionArgs) {
  const { user, actor } = await requireUser(request)
  const history = await domainCall(() => listLoginHistory(actor))
  // Dates are written on the server in the profile's time zone, so server and browser render alike.
  const timeZone = user.timeZone ?? 'UTC'
  const format = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23', timeZone })
  return { timeZone, history: history.map((h) => ({ ...h, date: format.format(h.timeStamp), timeStamp: h.timeStamp.toISOString() })) }
}

export const meta: MetaFunction = () => [{ title: 'Activity · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'Activity', to: '.' }) }

const METHOD_LABEL: Record<string, string> = { password: 'Password', google: 'Google', oidc: 'Single sign-on' }

/** User settings, Activity: login history with Date, Device and IP Address. */
export default function ActivityTab() {
  const { history, timeZone } = useLoaderData<typeof loader>()
  if (history.length === 0) return <EmptyState icon={<History className="size-8" />} title="No sign-ins recorded" />
  return (
    <Card>
      <CardHeader>
        <CardTitle>Login history</CardTitle>
        <CardDescription>Your most recent sign-ins. Times in {timeZone}.</CardDescription>
      </CardHeader>
      <table className="w-full text-[13px]" aria-label="Login history">
        <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
          <tr>
            <th className="px-4 py-2 font-medium">Date</th>
            <th className="px-4 py-2 font-medium">Device</th>
            <th className="px-4 py-2 font-medium">IP Address</th>
            <th className="px-4 py-2 font-medium">Method</th>
          </tr>
        </thead>
        <tbody>
          {history.map((h) => (
            <tr key={h.id} className="border-b last:border-0 hover:bg-muted/30">
              <td className="whitespace-nowrap px-4 py-1.5">
                <time dateTime={h.timeStamp}>{h.date}</time>
              </td>
              <td className="px-4 py-1.5">{h.device}</td>
              <td className="px-4 py-1.5 font-mono text-xs">{h.ip || '—'}</td>
              <td className="px-4 py-1.5 text-muted-foreground">{METHOD_LABEL[h.method] ?? h.method}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
