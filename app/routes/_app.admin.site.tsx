import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useFetcher, useLoaderData } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { toast } from 'sonner'
import { z } from 'zod'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PageHeader } from '~/components/page-header'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '~/components/ui/card'
import { DateTime } from '~/components/ui/date-time'
import { ConfirmDialog } from '~/components/ui/dialog'
import { Field, issueFor } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { clearSiteMessages, createSiteMessage, listSiteMessages } from '~/domain/site/messages.server'
import { SITE_MESSAGE_TYPES } from '~/domain/site/site-message-types'
import { requireSiteAdmin } from '~/utils/auth.server'
import { domainCall, formAction, type ActionFailure } from '~/utils/errors.server'
import { badRequest, readForm } from '~/utils/form.server'

export const handle = { breadcrumb: () => ({ label: 'General', to: '/admin/site' }) }

export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireSiteAdmin(request)
  const messages = await domainCall(() => listSiteMessages(actor))
  return { messages: messages.map((m) => ({ id: m.id, text: m.text, type: m.type, starts: m.starts.toISOString(), ends: m.ends.toISOString() })) }
}

const intent = z.enum(['add', 'clear'])

export async function action({ request }: ActionFunctionArgs) {
  const { actor } = await requireSiteAdmin(request)
  const form = await readForm(request)
  const parsed = intent.safeParse(form.intent)
  if (!parsed.success) return badRequest("Unknown action: send intent 'add' or 'clear'")
  if (parsed.data === 'clear') return formAction(() => clearSiteMessages(actor), 'All messages removed')
  return formAction(() => createSiteMessage(actor, form), 'Message added')
}

const toLocalInput = (date: Date) => new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16)

export default function AdminSite() {
  const { messages } = useLoaderData<typeof loader>()
  const fetcher = useFetcher<typeof action>()
  const [text, setText] = useState('')
  const [type, setType] = useState<(typeof SITE_MESSAGE_TYPES)[number]>('info')
  const [starts, setStarts] = useState(() => toLocalInput(new Date()))
  const [ends, setEnds] = useState(() => toLocalInput(new Date(Date.now() + 24 * 3600_000)))
  const [confirmClear, setConfirmClear] = useState(false)
  const failure = fetcher.data && !fetcher.data.ok ? (fetcher.data as ActionFailure) : null

  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (fetcher.data.ok) {
      toast.success(fetcher.data.message)
      setText('')
    } else if (!(fetcher.data as ActionFailure).issues.length) toast.error((fetcher.data as ActionFailure).message)
  }, [fetcher.state, fetcher.data])

  const add = () =>
    fetcher.submit(
      { intent: 'add', text, type, starts: new Date(starts).toISOString(), ends: new Date(ends).toISOString() },
      { method: 'post' },
    )

  return (
    <div className="max-w-3xl">
      <PageHeader title="General" subtitle="Site-wide messages shown as a banner to every signed-in user" />
      <Card>
        <CardHeader>
          <CardTitle>Site messages</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          <Field label="Message text" error={issueFor(failure?.issues, 'text')}>
            {(p) => <Input {...p} value={text} onChange={(e) => setText(e.target.value)} placeholder="Scheduled maintenance tonight at 22:00 UTC" />}
          </Field>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            <Field label="When: starts" error={issueFor(failure?.issues, 'starts')}>
              {(p) => <Input {...p} type="datetime-local" value={starts} onChange={(e) => setStarts(e.target.value)} />}
            </Field>
            <Field label="When: ends" error={issueFor(failure?.issues, 'ends')}>
              {(p) => <Input {...p} type="datetime-local" value={ends} onChange={(e) => setEnds(e.target.value)} />}
            </Field>
            <Field label="Type" error={issueFor(failure?.issues, 'type')}>
              {(p) => (
                <select {...p} value={type} onChange={(e) => setType(e.target.value as typeof type)} className="h-8 rounded-md border border-input bg-card px-2 text-sm">
                  {SITE_MESSAGE_TYPES.map((t) => (
                    <option key={t} value={t}>
                      {t}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <div className="flex gap-2">
            <Button onClick={add} disabled={text.trim().length === 0 || fetcher.state !== 'idle'}>
              Add Message
            </Button>
            <Button variant="outline" onClick={() => setConfirmClear(true)} disabled={messages.length === 0}>
              Remove all messages
            </Button>
          </div>
          <table className="mt-2 w-full text-sm">
            <thead className="border-b text-left text-xs text-muted-foreground">
              <tr>
                <th className="py-1.5 font-medium">Message</th>
                <th className="font-medium">Type</th>
                <th className="font-medium">Starts</th>
                <th className="font-medium">Ends</th>
              </tr>
            </thead>
            <tbody>
              {messages.length === 0 ? (
                <tr>
                  <td colSpan={4} className="py-4 text-center text-muted-foreground">
                    No data available
                  </td>
                </tr>
              ) : (
                messages.map((m) => (
                  <tr key={m.id} className="border-b last:border-0">
                    <td className="py-1.5">{m.text}</td>
                    <td>{m.type}</td>
                    <td>
                      <DateTime value={m.starts} />
                    </td>
                    <td>
                      <DateTime value={m.ends} />
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </CardContent>
      </Card>
      <ConfirmDialog
        open={confirmClear}
        onOpenChange={setConfirmClear}
        title="Remove all messages"
        text="Clear all messages?"
        destructive
        onConfirm={() => {
          setConfirmClear(false)
          fetcher.submit({ intent: 'clear' }, { method: 'post' })
        }}
      />
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
