import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useFetchers, useRouteLoaderData } from '@remix-run/react'
import { Toaster } from 'sonner'
import { GeneralErrorBoundary } from './components/error-boundary'
import { useAfterHydration } from './components/ui/after-hydration'
import { HydrationHandover } from './components/ui/hydration-handover'
import { TooltipProvider } from './components/ui/tooltip'
import { activeSiteMessages, cloudState } from './domain/site/cloud-state.server'
import { changeMark } from './domain/events/change-log.server'
import { getCurrentUser } from './utils/auth.server'
import { devToolsEnabled } from './utils/dev-tools.server'
import { getConfig } from './utils/env.server'
import { useNonce } from './utils/nonce'
import { isTheme, THEME_ACTION, themeClass, type Theme } from './utils/theme'
import { readTheme } from './utils/theme.server'
import stylesheet from './tailwind.css?url'
import { layoutShouldRevalidate } from './utils/live-revalidate'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

export const meta: MetaFunction = () => [{ title: 'Pixelfleet' }]

export async function loader({ request }: LoaderFunctionArgs) {
  // first, before the page's loaders read anything: later changes are replayed to the page's live stream
  const liveSince = changeMark()
  const config = getConfig()
  const [current, messages, cloud] = await Promise.all([getCurrentUser(request), activeSiteMessages(), cloudState()])
  return {
    user: current
      ? { id: current.user.id, name: current.user.name, email: current.user.email, isSiteAdmin: current.user.isAdmin }
      : null,
    siteMessages: messages.map((m) => ({ ...m, starts: m.starts.toISOString(), ends: m.ends.toISOString() })),
    instanceName: cloud.instanceName,
    features: { dashboards: config.FEATURE_DASHBOARDS, google: Boolean(config.GOOGLE_CLIENT_ID) },
    devTools: devToolsEnabled(),
    liveSince,
    /** rendered as the class of <html> by the server: the page arrives in its theme, no flash */
    theme: readTheme(request),
  }
}

export type RootData = Awaited<ReturnType<typeof loader>>
export const useRootData = () => useRouteLoaderData<RootData>('root')

/** The theme in force: the one being saved (at once, before the answer), else the saved one. */
export function useTheme(): Theme {
  const saving = useFetchers().find((f) => f.formAction === THEME_ACTION && f.formData)?.formData?.get('theme')
  const saved = useRootData()?.theme
  return isTheme(saving) ? saving : (saved ?? 'system')
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce()
  const theme = useTheme()
  return (
    <html lang="en" className={themeClass(theme)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <a href="#main-content" className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-[100] focus:rounded-md focus:bg-card focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:shadow-lg focus:ring-2 focus:ring-ring">
          Skip to content
        </a>
        <TooltipProvider>{children}</TooltipProvider>
        <Notifications />
        <HydrationHandover />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

/**
 * sonner's toasts, mounted with the first render after hydration: the server has none to show (a toast
 * raised before the mount is shown when sonner's Toaster subscribes), and its empty live region was
 * part of every page's render.
 */
function Notifications() {
  const live = useAfterHydration()
  return live ? <Toaster position="top-right" richColors closeButton /> : null
}

export default function App() {
  return <Outlet />
}

export const ErrorBoundary = GeneralErrorBoundary

/** Live fleet updates (agent reports) reload the page's data, not this layout's. */
export const shouldRevalidate = layoutShouldRevalidate('root')
