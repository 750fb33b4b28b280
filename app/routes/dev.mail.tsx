import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { Inbox } from 'lucide-react'
import { Fragment } from 'react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { EmptyState, PageHeader } from '~/components/page-header'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { listOutbox } from '~/domain/mail/outbox.server'
import { requireDevPage } from '~/utils/dev-tools.server'

export const meta: MetaFunction = () => [{ title: 'Outbox · Pixelfleet developer tools' }]

/** Developer outbox: every stored e-mail, newest first. Site admins only; absent (404) in production. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireDevPage(request)
  const to = new URL(request.url).searchParams.get('to') ?? ''
  const mails = await listOutbox({ to: to || undefined })
  return {
    to,
    mails: mails.map((m) => ({
      id: m.id,
      to: m.to,
      subject: m.subject,
      kind: m.kind,
      text: m.text,
      createdAt: m.createdAt.toISOString(),
      status: m.error ? `failed: ${m.error}` : m.sentAt ? 'sent via SMTP' : 'stored only',
    })),
  }
}

/** Plain text with its links made clickable. */
function LinkedText({ text }: { text: string }) {
  return (
    <>
      {text.split(/(https?:\/\/\S+)/g).map((part, i) =>
        i % 2 === 1 ? (
          <a key={i} href={part} className="break-all text-primary underline underline-offset-2">
            {part}
          </a>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  )
}

export default function DevOutbox() {
  const { to, mails } = useLoaderData<typeof loader>()
  return (
    <div className="mx-auto max-w-4xl px-6 py-6">
      <PageHeader
        title="Outbox"
        subtitle="E-mail the portal sent or stored (without SMTP_URL it is only stored here). Developer tool, not available in production."
        actions={
          <Form className="flex items-center gap-2" method="get">
            <Input name="to" defaultValue={to} placeholder="Filter by recipient" className="w-60" aria-label="Recipient" />
            <Button type="submit" variant="outline">
              Filter
            </Button>
          </Form>
        }
      />
      {mails.length === 0 ? (
        <EmptyState icon={<Inbox className="size-8" />} title="No e-mail" text={to ? `Nothing was sent to ${to}.` : 'Nothing was sent yet.'} />
      ) : (
        <ol className="flex flex-col gap-3">
          {mails.map((m) => (
            <li key={m.id} className="rounded-lg border bg-card shadow-sm" data-testid="outbox-mail">
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b px-4 py-2 text-[13px]">
                <span className="font-semibold">{m.subject}</span>
                {m.kind ? <Badge variant="secondary">{m.kind}</Badge> : null}
                <span className="text-muted-foreground">to {m.to}</span>
                <span className="ml-auto text-xs text-muted-foreground">
                  <time dateTime={m.createdAt}>{m.createdAt.replace('T', ' ').slice(0, 19)} UTC</time> · {m.status}
                </span>
              </div>
              <pre className="whitespace-pre-wrap px-4 py-3 font-sans text-[13px] leading-relaxed">
                <LinkedText text={m.text} />
              </pre>
            </li>
          ))}
        </ol>
      )}
      <p className="mt-6 text-xs text-muted-foreground">
        <Link to="/dev" className="text-primary hover:underline">
          Developer pages
        </Link>{' '}
        ·{' '}
        <Link to="/" className="text-primary hover:underline">
          Back to the portal
        </Link>
      </p>
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
