import { Ban, Bot, ChevronDown, ChevronRight, CircleCheck, Pencil, ShieldCheck, UserCheck, UserX } from 'lucide-react'
import { Fragment, useCallback, useState } from 'react'
import { toast } from 'sonner'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { DateTime } from '~/components/ui/date-time'
import { Tooltip } from '~/components/ui/tooltip'
import { ApiError, callApi } from '~/utils/api-client'
import { cn } from '~/utils/cn'
import { type AdminUser } from './admin-user'
import { AdminUserEditDialog } from './admin-user-edit-dialog'
import { usePageTokenList, type TokenPage } from './use-page-token-list'

/** The admin view of a user as admin/users returns it (spec 01 section 3). */
const ACL_ERROR = 'Error : User is missing expected compiled ACLs'

/** The icon column: disabled, agent robot, admin, verified or unverified user, in that order. */
function UserIcon({ user }: { user: AdminUser }) {
  const [Icon, label, color] = user.disabled
    ? [Ban, 'Disabled', 'text-red-600']
    : user.customClaims.mvr_agent
      ? [Bot, 'Agent account', 'text-muted-foreground']
      : user.customClaims.admin
        ? [ShieldCheck, 'Site admin', 'text-primary']
        : user.emailVerified
          ? [UserCheck, 'Verified user', 'text-emerald-600']
          : [UserX, 'Unverified user', 'text-amber-600']
  return (
    <Tooltip content={label}>
      <span className={cn('inline-flex', color)} aria-label={label} role="img">
        <Icon className="size-4" />
      </span>
    </Tooltip>
  )
}

export function AdminUsersTable({ first, pageSize, selfId, vendorDomain }: { first: TokenPage<AdminUser>; pageSize: number; selfId: string; vendorDomain: string }) {
  const fetchPage = useCallback((pageToken: string | null) => callApi<TokenPage<AdminUser>>('admin/users', { limit: pageSize, pageToken }), [pageSize])
  const list = usePageTokenList(first, pageSize, fetchPage)
  const [expanded, setExpanded] = useState<Set<string>>(new Set())
  const [editing, setEditing] = useState<AdminUser | null>(null)
  const toggle = (uid: string) =>
    setExpanded((s) => {
      const next = new Set(s)
      if (!next.delete(uid)) next.add(uid)
      return next
    })
  const replace = (user: AdminUser) => list.setItems((items) => items.map((u) => (u.uid === user.uid ? user : u)))

  return (
    <>
      <Card className="relative overflow-x-auto">
        <table className="w-full text-[13px]" aria-label="Users">
          <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
            <tr>
              <th className="w-8 px-2.5 py-2" aria-label="Status" />
              <th className="px-2.5 py-2 font-medium">Name</th>
              <th className="px-2.5 py-2 font-medium">Email</th>
              <th className="hidden px-2.5 py-2 font-medium md:table-cell">Created</th>
              <th className="hidden px-2.5 py-2 font-medium md:table-cell">Signed in</th>
              <th className="px-2.5 py-2" aria-label="Badges" />
              <th className="w-10 px-2.5 py-2" aria-label="Edit" />
            </tr>
          </thead>
          <tbody>
            {list.items.map((u) => {
              const open = expanded.has(u.uid)
              return (
                <Fragment key={u.uid}>
                  <tr className={cn('border-b hover:bg-muted/30', open && 'bg-muted/20')} data-testid="admin-user-row">
                    <td className="px-2.5 py-1.5">
                      <UserIcon user={u} />
                    </td>
                    <td className="px-2.5 py-1.5">
                      <button
                        type="button"
                        className="flex items-center gap-1 text-left font-medium hover:underline"
                        aria-expanded={open}
                        onClick={() => toggle(u.uid)}
                      >
                        {open ? <ChevronDown className="size-3.5 shrink-0" /> : <ChevronRight className="size-3.5 shrink-0" />}
                        {u.displayName || '(no name)'}
                      </button>
                    </td>
                    <td className="max-w-64 truncate px-2.5 py-1.5" title={u.email}>
                      {u.email}
                    </td>
                    <td className="hidden whitespace-nowrap px-2.5 py-1.5 text-muted-foreground md:table-cell">
                      <DateTime value={u.times.creation} />
                    </td>
                    <td className="hidden whitespace-nowrap px-2.5 py-1.5 text-muted-foreground md:table-cell">
                      {u.times.lastSignIn ? <DateTime value={u.times.lastSignIn} /> : 'Never'}
                    </td>
                    <td className="whitespace-nowrap px-2.5 py-1.5">
                      <span className="flex gap-1">
                        {u.disabled ? <Badge variant="destructive">Blocked</Badge> : null}
                        {u.customClaims.admin ? <Badge>Admin</Badge> : null}
                      </span>
                    </td>
                    <td className="px-2.5 py-1.5 text-right">
                      <Button size="icon" variant="ghost" className="size-7" aria-label={`Edit ${u.email}`} onClick={() => setEditing(u)}>
                        <Pencil />
                      </Button>
                    </td>
                  </tr>
                  {open ? (
                    <tr className="border-b bg-muted/10">
                      <td colSpan={7} className="px-4 py-3">
                        <UserDetails user={u} />
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              )
            })}
          </tbody>
        </table>
        {list.items.length === 0 ? <p className="px-4 py-6 text-center text-sm text-muted-foreground">No users.</p> : null}
      </Card>
      <div ref={list.sentinelRef} className="flex h-8 items-center justify-center text-xs text-muted-foreground" aria-live="polite">
        {list.error ? (
          <span className="text-red-600">
            {list.error}{' '}
            <button type="button" className="underline" onClick={list.loadMore}>
              Retry
            </button>
          </span>
        ) : list.loading ? (
          'Loading…'
        ) : list.hasMore ? (
          <button type="button" className="text-primary hover:underline" onClick={list.loadMore}>
            Load more ({list.items.length} loaded)
          </button>
        ) : (
          `${list.items.length} users`
        )}
      </div>
      <AdminUserEditDialog
        user={editing}
        selfId={selfId}
        vendorDomain={vendorDomain}
        onClose={() => setEditing(null)}
        onSaved={(user) => {
          replace(user)
          setEditing(null)
        }}
      />
    </>
  )
}

/** Expanded row: the raw admin fields and the three ACL actions. */
function UserDetails({ user }: { user: AdminUser }) {
  const [busy, setBusy] = useState<string | null>(null)
  const [validation, setValidation] = useState<{ status: string; differences: string[] } | null>(null)
  const [aclData, setAclData] = useState<unknown>(null)
  const run = async (key: string, fn: () => Promise<void>) => {
    setBusy(key)
    try {
      await fn()
    } catch (e) {
      toast.error(e instanceof ApiError ? e.message : 'An unrecognized error has occurred')
    } finally {
      setBusy(null)
    }
  }
  const fields: [string, string][] = [
    ['uid', user.uid],
    ['displayName', user.displayName],
    ['email', user.email],
    ['emailVerified', String(user.emailVerified)],
    ['disabled', String(user.disabled)],
    ['customClaims', JSON.stringify(user.customClaims)],
    ['times.creation', user.times.creation],
    ['times.lastSignIn', user.times.lastSignIn ?? 'None'],
  ]
  return (
    <div className="flex flex-col gap-3" data-testid="admin-user-details">
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-0.5 font-mono text-xs">
        {fields.map(([k, v]) => (
          <Fragment key={k}>
            <dt className="text-muted-foreground">{k}</dt>
            <dd className="break-all">{v}</dd>
          </Fragment>
        ))}
      </dl>
      <div className="flex flex-wrap items-center gap-2">
        <Button
          size="sm"
          variant="outline"
          disabled={busy !== null}
          onClick={() => run('validate', async () => setValidation(await callApi('admin/userAclValidate', { userId: user.uid })))}
        >
          Validate Compiled ACLs for User
        </Button>
        <Button size="sm" variant="outline" disabled={busy !== null} onClick={() => run('fetch', async () => setAclData(await callApi('admin/userAclData', { userId: user.uid })))}>
          Fetch Acl / compiledAcl data
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={busy !== null}
          onClick={() =>
            run('recompile', async () => {
              await callApi('admin/userAclRecompile', { userId: user.uid })
              setValidation(null)
              toast.success('ACLs recompiled')
            })
          }
        >
          Recompile ACLs for User
        </Button>
        {validation ? (
          validation.status === 'ok' ? (
            <span className="flex items-center gap-1 text-xs text-emerald-700" data-testid="acl-validation">
              <CircleCheck className="size-4" aria-label="Compiled ACLs are valid" /> ok
            </span>
          ) : (
            <span className="text-xs text-red-600" data-testid="acl-validation">
              {ACL_ERROR}
            </span>
          )
        ) : null}
      </div>
      {validation && validation.differences.length ? (
        <ul className="list-inside list-disc font-mono text-xs text-red-600">
          {validation.differences.map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      ) : null}
      {aclData ? (
        <pre className="max-h-72 overflow-auto rounded border bg-card p-2 font-mono text-[11px] leading-snug" data-testid="acl-data">
          {JSON.stringify(aclData, null, 2)}
        </pre>
      ) : null}
    </div>
  )
}
