import { isRouteErrorResponse, Link, useRouteError } from '@remix-run/react'
import { CloudOff, ShieldAlert, SearchX, TriangleAlert } from 'lucide-react'
import { Button } from './ui/button'

export function AccessDenied({ punctuation = '!' }: { punctuation?: string }) {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-3 py-20 text-center">
      <ShieldAlert className="size-10 text-muted-foreground" />
      <h1 className="text-xl font-semibold">Access denied</h1>
      <p className="text-sm text-muted-foreground">You have insufficient access rights to access this page{punctuation}</p>
      <Button asChild variant="outline">
        <Link to="/">Go to home page</Link>
      </Button>
    </div>
  )
}

export function NotFound() {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-3 py-20 text-center">
      <SearchX className="size-10 text-muted-foreground" />
      <h1 className="text-xl font-semibold">Not found</h1>
      <p className="text-sm text-muted-foreground">The page you are looking for does not exist or was moved.</p>
      <Button asChild variant="outline">
        <Link to="/">Back to home</Link>
      </Button>
    </div>
  )
}

/**
 * The database or broker is briefly unavailable (a 503): the standalone page of app/entry.server.tsx
 * and the error boundary of a client-side navigation that got a 503. A plain link, not <Link>: the
 * standalone page has no router.
 */
export function ServiceUnavailable() {
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-3 py-20 text-center">
      <CloudOff className="size-10 text-muted-foreground" />
      <h1 className="text-xl font-semibold">The service is briefly unavailable</h1>
      <p className="text-sm text-muted-foreground">The service is briefly unavailable. Please try again in a few seconds; nothing you saved before is lost.</p>
      <Button asChild variant="outline">
        <a href="">Try again</a>
      </Button>
    </div>
  )
}

/** Every route module's ErrorBoundary: 403 -> Access denied, 404 -> Not found, else the message. */
export function GeneralErrorBoundary() {
  const error = useRouteError()
  if (isRouteErrorResponse(error)) {
    // spec 02: only the no-access page ends the sentence with '!'; other screens spell it without
    if (error.status === 403) return <AccessDenied punctuation="" />
    if (error.status === 404) return <NotFound />
    if (error.status === 503) return <ServiceUnavailable />
  }
  const message = isRouteErrorResponse(error)
    ? ((error.data as { message?: string } | undefined)?.message ?? error.statusText)
    : error instanceof Error
      ? error.message
      : 'An unrecognized error has occurred'
  if (typeof document !== 'undefined') console.error(error)
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-3 py-20 text-center">
      <TriangleAlert className="size-10 text-amber-500" />
      <h1 className="text-xl font-semibold">Something went wrong</h1>
      <p className="text-sm text-muted-foreground">{message || 'An unrecognized error has occurred'}</p>
      <Button asChild variant="outline">
        <Link to="/">Back to home</Link>
      </Button>
    </div>
  )
}
