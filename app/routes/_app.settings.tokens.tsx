import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useFetcher, useLoaderData } from '@remix-run/react'
import { Check, Copy, KeyRound, Plus } from 'lucide-react'
import { useEffect, useState } from 'react'
import { toast } from 'sonner'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { EmptyState } from '~/components/page-header'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { DateTime } from '~/components/ui/date-time'
import { ConfirmDialog, Dialog } from '~/components/ui/dialog'
import { Field, issueFor } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { createApiToken, listApiTokens, listEndedApiTokens, revokeApiToken, type CreatedApiToken } from '~/domain/auth/api-tokens.server'
import { invalid } from '~/domain/errors'
import { requireUser } from '~/utils/auth.server'
import { domainCall, formAction, type ActionFailure, type ActionSuccess } from '~/utils/errors.server'
import { readFormData } from '~/utils/form.server'

export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const [tokens, ended] = await Promise.all([domainCall(() => listApiTokens(actor)), domainCall(() => listEndedApiTokens(actor))])
  return { tokens, ended }
}

export async function action({ request }: ActionFunctionArgs) {
  const { actor } = await requireUser(request)
  const form = await readFormData(request)
  const intent = form.get('intent')
  if (intent === 'create') return formAction(() => createApiToken(actor, { name: form.get('name') }))
  if (intent === 'revoke') return formAction(() => revokeApiToken(actor, String(form.get('id') ?? '')), 'Token revoked')
  return formAction(async () => {
    throw invalid('Unknown action')
  })
}

export const meta: MetaFunction = () => [{ title: 'API Tokens · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'API Tokens', to: '.' }) }

const formatDate = (value: Date | string | null) => (value ? <DateTime value={value} /> : 'Never')

/** User settings, API Tokens: personal tokens for the CLI and scripts (list, create once-shown, revoke). */
export default function ApiTokensTab() {
  const { tokens, ended } = useLoaderData<typeof loader>()
  const [creating, setCreating] = useState(false)
  // A fresh dialog (and fetcher) per opening, so a shown token never reappears.
  const [dialogKey, setDialogKey] = useState(0)
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null)
  const revoke = useFetcher<ActionSuccess<unknown> | ActionFailure>()

  useEffect(() => {
    if (revoke.state !== 'idle' || !revoke.data) return
    if (revoke.data.ok) {
      toast.success(revoke.data.message ?? 'Token revoked')
      setRevoking(null)
    } else toast.error(revoke.data.message)
  }, [revoke.state, revoke.data])

  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between gap-4">
        <div className="flex flex-col gap-1">
          <CardTitle>API Tokens</CardTitle>
          <CardDescription>
            Personal tokens let the <code className="font-mono">pixelfleet</code> CLI and your scripts act as you. Treat them like passwords.
          </CardDescription>
        </div>
        <Button
          size="sm"
          onClick={() => {
            setDialogKey((k) => k + 1)
            setCreating(true)
          }}
        >
          <Plus /> New Token
        </Button>
      </CardHeader>
      {tokens.length === 0 ? (
        <div className="p-4">
          <EmptyState
            icon={<KeyRound className="size-8" />}
            title="No API tokens"
            text="Create one here, or run `pixelfleet login`, which creates a token for the CLI."
          />
        </div>
      ) : (
        <table className="w-full text-sm" aria-label="API Tokens">
          <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
            <tr>
              <th className="px-3 py-2 font-medium">Name</th>
              <th className="px-3 py-2 font-medium">Token</th>
              <th className="px-3 py-2 font-medium">Created</th>
              <th className="px-3 py-2 font-medium">Last used</th>
              <th className="px-3 py-2" />
            </tr>
          </thead>
          <tbody>
            {tokens.map((t) => (
              <tr key={t.id} className="border-b last:border-0">
                <td className="px-3 py-2 font-medium">{t.name}</td>
                <td className="px-3 py-2 font-mono text-xs text-muted-foreground">{t.prefix}…</td>
                <td className="px-3 py-2 text-muted-foreground">{formatDate(t.createdAt)}</td>
                <td className="px-3 py-2 text-muted-foreground">{formatDate(t.lastUsedAt)}</td>
                <td className="px-3 py-2 text-right">
                  <Button size="sm" variant="outline" onClick={() => setRevoking({ id: t.id, name: t.name })}>
                    Revoke
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {ended.length > 0 ? (
        <div className="border-t">
          <h3 className="px-4 pb-1 pt-3 text-xs font-semibold uppercase tracking-wide text-muted-foreground">Ended tokens</h3>
          <table className="w-full text-sm" aria-label="Ended API Tokens">
            <tbody>
              {ended.map((t) => (
                <tr key={t.id} className="border-b text-muted-foreground last:border-0">
                  <td className="px-3 py-2">{t.name}</td>
                  <td className="px-3 py-2 font-mono text-xs">{t.prefix}…</td>
                  <td className="px-3 py-2" data-testid="token-ended">
                    Ended: {t.endedReason}, {formatDate(t.endedAt)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <CreateTokenDialog key={dialogKey} open={creating} onOpenChange={setCreating} />
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title="Revoke Token"
        text={`Are you sure you want to revoke the token '${revoking?.name ?? ''}'? Scripts and CLI sessions using it stop working immediately.`}
        confirmLabel="Revoke"
        destructive
        busy={revoke.state !== 'idle'}
        onConfirm={() => revoking && revoke.submit({ intent: 'revoke', id: revoking.id }, { method: 'post' })}
      />
    </Card>
  )
}

/** Name the token, then show it exactly once with a copy button. */
function CreateTokenDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useFetcher<ActionSuccess<CreatedApiToken> | ActionFailure>()
  const [name, setName] = useState('')
  const [copied, setCopied] = useState(false)
  const created = create.data?.ok ? create.data.result : null
  const issues = create.data && !create.data.ok ? create.data.issues : []

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={created ? 'Token created' : 'New API Token'}
      description={created ? undefined : 'Give the token a name that says where it is used.'}
      footer={
        created ? (
          <Button onClick={() => onOpenChange(false)}>Done</Button>
        ) : (
          <>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" form="create-token" disabled={!name.trim() || create.state !== 'idle'}>
              Create
            </Button>
          </>
        )
      }
    >
      {created ? (
        <div className="flex flex-col gap-3">
          <Alert type="warning">Copy the token now. It is shown only once and cannot be retrieved later.</Alert>
          <div className="flex items-center gap-2">
            <Input readOnly value={created.token} aria-label="New token" className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
            <Button
              variant="outline"
              size="icon"
              aria-label="Copy token"
              onClick={async () => {
                await navigator.clipboard.writeText(created.token)
                setCopied(true)
                toast.success('Token copied')
              }}
            >
              {copied ? <Check /> : <Copy />}
            </Button>
          </div>
          <p className="text-xs text-muted-foreground">
            Use it as <code className="font-mono">Authorization: Bearer …</code> or set <code className="font-mono">PIXELFLEET_TOKEN</code> for the CLI.
          </p>
        </div>
      ) : (
        <create.Form id="create-token" method="post">
          <input type="hidden" name="intent" value="create" />
          <Field label="Name" error={issueFor(issues, 'name') ?? (create.data && !create.data.ok && issues.length === 0 ? create.data.message : undefined)}>
            {(props) => <Input {...props} name="name" autoFocus maxLength={100} value={name} onChange={(e) => setName(e.target.value)} placeholder="CI deploy job" />}
          </Field>
        </create.Form>
      )}
    </Dialog>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
