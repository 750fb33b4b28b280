import { type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PageHeader } from '~/components/page-header'
import { Card, CardContent } from '~/components/ui/card'
import { VERSION_TEXT } from '~/domain/site/cloud-state.server'

export const meta: MetaFunction = () => [{ title: 'About · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'About', to: '/about' }) }

export const loader = () => ({ version: VERSION_TEXT, year: new Date().getFullYear() })

export default function About() {
  const { version, year } = useLoaderData<typeof loader>()
  return (
    <div className="max-w-xl">
      <PageHeader title="About" subtitle="Pixelfleet cloud portal for LED-wall and virtual-production fleets" />
      <Card>
        <CardContent className="flex flex-col gap-2 py-4 text-sm">
          <p>
            Version <span className="font-mono font-medium" data-testid="version-text">{version}</span>
          </p>
          <p className="text-muted-foreground">© {year} Pixelfleet. All rights reserved.</p>
          <p className="flex gap-4">
            <a className="text-primary hover:underline" href="https://pixelfleet.io/support" target="_blank" rel="noreferrer">
              Support
            </a>
            <a className="text-primary hover:underline" href="https://pixelfleet.io/contact" target="_blank" rel="noreferrer">
              Contact
            </a>
          </p>
        </CardContent>
      </Card>
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
