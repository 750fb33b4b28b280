import { useFetcher } from '@remix-run/react'
import { Check, Copy, KeyRound, Plus } from 'lucide-react'
import { useEffect, useState } from 'react'
import { toast } from 'sonner'
import { EmptyState } from '~/components/page-header'
import { Alert } from '~/components/ui/alert'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { DateTime } from '~/components/ui/date-time'
import { ConfirmDialog, Dialog } from '~/components/ui/dialog'
import { Field, issueFor, Label } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { NativeSelect } from '~/components/ui/native-select'
import { PERMISSION_GROUPS } from '~/domain/access/catalogue'
import { describeScope, TOKEN_EXPIRY_DAYS } from '~/domain/auth/token-scope'
import { type ActionFailure, type ActionSuccess } from '~/utils/errors.server'

/** A token as the lists show it (dates as Date or, serialised, string). */
export type TokenRow = {
  id: string
  name: string
  prefix: string
  scope: string
  permissions: string[]
  createdAt: string | Date
  lastUsedAt: string | Date | null
  expiresAt: string | Date | null
  createdByName?: string | null
}

const formatDate = (value: string | Date | null, never = 'Never') => (value ? <DateTime value={value} /> : never)

/** Personal and service token lists: name, scope, expiry, last use, revoke (with confirmation). */
export function TokenTable({ tokens, label, showCreator = false }: { tokens: TokenRow[]; label: string; showCreator?: boolean }) {
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
    <>
      <div className="relative overflow-x-auto">
        <table className="w-full min-w-[640px] text-sm [&_td]:whitespace-nowrap" aria-label={label}>
          <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
            <tr>
              <th className="px-3 py-2 font-medium">Name</th>
              <th className="px-3 py-2 font-medium">Token</th>
              <th className="px-3 py-2 font-medium">Scope</th>
              {showCreator ? <th className="px-3 py-2 font-medium">Created by</th> : null}
              <th className="px-3 py-2 font-medium">Created</th>
              <th className="px-3 py-2 font-medium">Expires</th>
              <th className="px-3 py-2 font-medium">Last used</th>
              <th className="px-3 py-2" />
            </tr>
          </thead>
          <tbody>
            {tokens.map((t) => (
              <tr key={t.id} className="border-b last:border-0">
                <td className="px-3 py-2 font-medium">{t.name}</td>
                <td className="px-3 py-2 font-mono text-xs text-muted-foreground">{t.prefix}…</td>
                <td className="px-3 py-2">
                  <Badge className="whitespace-nowrap" variant={t.scope === 'full' ? 'secondary' : 'outline'} title={t.scope === 'custom' ? t.permissions.join(', ') : undefined}>
                    {describeScope(t.scope, t.permissions)}
                  </Badge>
                </td>
                {showCreator ? <td className="px-3 py-2 text-muted-foreground">{t.createdByName ?? '—'}</td> : null}
                <td className="px-3 py-2 text-muted-foreground">{formatDate(t.createdAt)}</td>
                <td className="px-3 py-2 text-muted-foreground">{formatDate(t.expiresAt)}</td>
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
      </div>
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
    </>
  )
}

/**
 * A fresh create dialog (and fetcher) per opening, so a token shown once never reappears: `key`
 * goes on the dialog, `openNew` on the button.
 */
export function useFreshTokenDialog() {
  const [open, setOpen] = useState(false)
  const [key, setKey] = useState(0)
  return { open, setOpen, key, openNew: () => (setKey((k) => k + 1), setOpen(true)) }
}

/** The tokens card's header: title, what the tokens are for, and the New Token button. */
export function TokensCardHeader({ title, children, onNew }: { title: string; children: React.ReactNode; onNew: () => void }) {
  return (
    <CardHeader className="flex-row items-center justify-between gap-4">
      <div className="flex flex-col gap-1">
        <CardTitle>{title}</CardTitle>
        <CardDescription>{children}</CardDescription>
      </div>
      <Button size="sm" onClick={onNew}>
        <Plus /> New Token
      </Button>
    </CardHeader>
  )
}

export function NoTokens({ title = 'No API tokens', text }: { title?: string; text: string }) {
  return (
    <div className="p-4">
      <EmptyState icon={<KeyRound className="size-8" />} title={title} text={text} />
    </div>
  )
}

/** Name, scope and expiry of a new token, then the token itself, shown exactly once with a copy button. */
export function CreateTokenDialog({ open, onOpenChange, description }: { open: boolean; onOpenChange: (open: boolean) => void; description: string }) {
  const create = useFetcher<ActionSuccess<{ token: string }> | ActionFailure>()
  const [name, setName] = useState('')
  const [scope, setScope] = useState('full')
  const [copied, setCopied] = useState(false)
  const created = create.data?.ok ? create.data.result : null
  const issues = create.data && !create.data.ok ? create.data.issues : []
  const general = create.data && !create.data.ok && issues.length === 0 ? create.data.message : undefined

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={created ? 'Token created' : 'New API Token'}
      description={created ? undefined : description}
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
        <create.Form id="create-token" method="post" className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="create" />
          <Field label="Name" error={issueFor(issues, 'name') ?? general}>
            {(props) => <Input {...props} name="name" autoFocus maxLength={100} value={name} onChange={(e) => setName(e.target.value)} placeholder="CI deploy job" />}
          </Field>
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            <Field label="Scope" error={issueFor(issues, 'scope')}>
              {(props) => (
                <NativeSelect {...props} name="scope" value={scope} onChange={(e) => setScope(e.target.value)} className="w-full">
                  <option value="full">Full access</option>
                  <option value="read">Read-only</option>
                  <option value="custom">Chosen permissions</option>
                </NativeSelect>
              )}
            </Field>
            <Field label="Expires" error={issueFor(issues, 'expiresInDays')}>
              {(props) => (
                <NativeSelect {...props} name="expiresInDays" defaultValue="30" className="w-full">
                  {TOKEN_EXPIRY_DAYS.map((d) => (
                    <option key={d} value={d}>
                      {d === 1 ? 'In 1 day' : `In ${d} days`}
                    </option>
                  ))}
                  <option value="">Never</option>
                </NativeSelect>
              )}
            </Field>
          </div>
          {scope === 'custom' ? <PermissionChecklist error={issueFor(issues, 'permissions')} /> : null}
        </create.Form>
      )}
    </Dialog>
  )
}

function PermissionChecklist({ error }: { error?: string }) {
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={error ? 'token-permissions-error' : undefined}>
      <legend className="mb-1 text-sm font-medium">Permissions</legend>
      <div className="max-h-56 overflow-y-auto rounded-md border p-2">
        {Object.entries(PERMISSION_GROUPS)
          .filter(([group]) => group !== 'Global')
          .map(([group, { permissions }]) => (
            <div key={group} className="mb-2 last:mb-0">
              <div className="mb-1 text-xs font-semibold uppercase tracking-wide text-muted-foreground">{group}</div>
              <div className="grid grid-cols-1 gap-x-3 gap-y-1 sm:grid-cols-2">
                {permissions.map((p) => (
                  <Label key={p} className="flex items-center gap-2 font-mono text-xs font-normal">
                    <input type="checkbox" name="permissions" value={p} className="size-3.5 accent-primary" />
                    {p}
                  </Label>
                ))}
              </div>
            </div>
          ))}
      </div>
      {error ? (
        <p id="token-permissions-error" className="text-xs text-destructive">
          {error}
        </p>
      ) : null}
    </fieldset>
  )
}

/** The create form's fields as the domain's token spec. */
export function tokenSpecFromForm(form: FormData) {
  const expires = String(form.get('expiresInDays') ?? '')
  return {
    name: form.get('name'),
    scope: form.get('scope') ?? 'full',
    permissions: form.getAll('permissions').map(String),
    expiresInDays: expires === '' ? null : Number(expires),
  }
}
