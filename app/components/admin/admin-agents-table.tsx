import { Check, ChevronDown, ChevronRight, Search, Trash2 } from 'lucide-react'
import { Fragment, useCallback, useEffect, useRef, useState } from 'react'
import { toast } from 'sonner'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { DateTime } from '~/components/ui/date-time'
import { ConfirmDialog } from '~/components/ui/dialog'
import { Input } from '~/components/ui/input'
import { ApiError, callApi } from '~/utils/api-client'
import { cn } from '~/utils/cn'
import { formatDateTime, timeAgo } from '~/utils/format-time'
import { useDebouncedCallback } from '~/utils/use-debounced-callback'
import { useNow } from '~/utils/use-live-revalidate'
import { usePageTokenList, type TokenPage } from './use-page-token-list'
import type { AdminAgentView } from '~/domain/admin/agents-admin.server'

/** One row as `admin/agents` returns it (the domain's shape, not a copy of it). */
export type AdminAgent = AdminAgentView
type Tunnel = { id: string; address: string; port: number; createdAt: string; lastSeen: string; forwards: Record<string, { connectionsActive: number }> }

/** Spec 01 section 9: filter debounce 300 ms, tunnel connections refresh every 5000 ms. */
const FILTER_DEBOUNCE_MS = 300
const TUNNEL_REFRESH_MS = 5000

const agentName = (a: AdminAgent) => a.clientName || a.id

export function AdminAgentsTable({ first, pageSize }: { first: TokenPage<AdminAgent>; pageSize: number }) {
  const filterRef = useRef('')
  const fetchPage = useCallback(
    (pageToken: string | null) => callApi<TokenPage<AdminAgent>>('admin/agents', { limit: pageSize, pageToken, filter: filterRef.current }),
    [pageSize],
  )
  const list = usePageTokenList(first, pageSize, fetchPage)
  const [filter, setFilter] = useState('')
  const applyFilter = useDebouncedCallback((value: string) => {
    filterRef.current = value
    list.restart()
  }, FILTER_DEBOUNCE_MS)
  const [expanded, setExpanded] = useState<Set<string>>(new Set())
  const [removing, setRemoving] = useState<AdminAgent | null>(null)
  const [busy, setBusy] = useState(false)
  const toggle = (id: string) =>
    setExpanded((s) => {
      const next = new Set(s)
      if (!next.delete(id)) next.add(id)
      return next
    })

  const remove = async (agent: AdminAgent) => {
    setBusy(true)
    try {
      // The organization's own removal: the same rules and audit record as the Agents page there.
      await callApi('agent/remove', { id: agent.organizationId, agentId: agent.id })
      list.setItems((items) => items.map((a) => (a.id === agent.id ? { ...a, organizationId: null, organizationName: null } : a)))
      toast.success(`Removed ${agentName(agent)} from ${agent.organizationName ?? 'its organization'}`)
      setRemoving(null)
    } catch (e) {
      toast.error(e instanceof ApiError ? e.message : 'An unrecognized error has occurred')
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <div className="relative w-full max-w-sm">
        <Search className="pointer-events-none absolute left-2.5 top-2 size-4 text-muted-foreground" />
        <Input
          aria-label="Filter by name"
          placeholder="Filter by name (any word)"
          className="pl-8"
          value={filter}
          onChange={(e) => {
            setFilter(e.target.value)
            applyFilter(e.target.value)
          }}
        />
      </div>
      <Card className="relative overflow-x-auto">
        <table className="w-full text-[13px]" aria-label="Agents">
          <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
            <tr>
              <th className="px-2.5 py-2 font-medium">Name</th>
              <th className="px-2.5 py-2 font-medium">Product</th>
              <th className="hidden px-2.5 py-2 font-medium sm:table-cell">Version</th>
              <th className="px-2.5 py-2 text-center font-medium">Enabled</th>
              <th className="px-2.5 py-2 font-medium">Organization</th>
              <th className="w-10 px-2.5 py-2" aria-label="Remove" />
            </tr>
          </thead>
          <tbody>
            {list.items.map((a) => {
              const open = expanded.has(a.id)
              return (
                <Fragment key={a.id}>
                  <tr className={cn('border-b hover:bg-muted/30', open && 'bg-muted/20')} data-testid="admin-agent-row">
                    <td className="px-2.5 py-1.5">
                      <button type="button" className="flex items-center gap-1 text-left font-medium hover:underline" aria-expanded={open} onClick={() => toggle(a.id)}>
                        {open ? <ChevronDown className="size-3.5 shrink-0" /> : <ChevronRight className="size-3.5 shrink-0" />}
                        {agentName(a)}
                      </button>
                    </td>
                    <td className="px-2.5 py-1.5">{a.product || '—'}</td>
                    <td className="hidden px-2.5 py-1.5 font-mono text-xs sm:table-cell">{a.version || '—'}</td>
                    <td className="px-2.5 py-1.5 text-center">
                      {a.enabled ? <Check className="inline size-4 text-emerald-600" aria-label="Enabled" /> : <span className="text-muted-foreground">—</span>}
                    </td>
                    <td className="px-2.5 py-1.5">{a.organizationName ?? <span className="text-muted-foreground">Not enrolled</span>}</td>
                    <td className="px-2.5 py-1.5 text-right">
                      {a.organizationId ? (
                        <Button size="icon" variant="ghost" className="size-7 text-red-600 hover:text-red-700" aria-label={`Remove ${agentName(a)}`} onClick={() => setRemoving(a)}>
                          <Trash2 />
                        </Button>
                      ) : null}
                    </td>
                  </tr>
                  {open ? (
                    <tr className="border-b bg-muted/10">
                      <td colSpan={6} className="px-4 py-3">
                        <AgentDetails agent={a} />
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              )
            })}
          </tbody>
        </table>
        {list.items.length === 0 && !list.loading ? (
          <p className="px-4 py-6 text-center text-sm text-muted-foreground">{filter.trim() ? 'No agent name contains any of these words.' : 'No agents yet.'}</p>
        ) : null}
      </Card>
      <div ref={list.sentinelRef} className="flex h-8 items-center justify-center text-xs text-muted-foreground" aria-live="polite">
        {list.error ? (
          <span className="text-red-600">{list.error}</span>
        ) : list.loading ? (
          'Loading…'
        ) : list.hasMore ? (
          <button type="button" className="text-primary hover:underline" onClick={list.loadMore}>
            Load more ({list.items.length} loaded)
          </button>
        ) : (
          `${list.items.length} agents`
        )}
      </div>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title="Remove Agent"
        text={`Are you sure you want to remove ${removing ? agentName(removing) : ''}?`}
        confirmLabel="Remove"
        destructive
        busy={busy}
        onConfirm={() => removing && void remove(removing)}
      />
    </>
  )
}

/** Expanded row: ids, enrollment codes and the tunnel connections, polled while open. */
function AgentDetails({ agent }: { agent: AdminAgent }) {
  const [tunnels, setTunnels] = useState<Tunnel[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const now = useNow(1000)
  useEffect(() => {
    let stopped = false
    const load = () =>
      callApi<{ items: Tunnel[] }>('admin/tunnelConnections', { agentId: agent.id })
        .then((r) => !stopped && (setTunnels(r.items), setError(null)))
        .catch((e: Error) => !stopped && setError(e.message))
    void load()
    const timer = setInterval(load, TUNNEL_REFRESH_MS)
    return () => {
      stopped = true
      clearInterval(timer)
    }
  }, [agent.id])

  return (
    <div className="flex flex-col gap-3 text-xs" data-testid="admin-agent-details">
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-0.5">
        <dt className="text-muted-foreground">id</dt>
        <dd className="break-all font-mono">{agent.id}</dd>
        <dt className="text-muted-foreground">organization id</dt>
        <dd className="break-all font-mono">{agent.organizationId ?? '(none)'}</dd>
        <dt className="text-muted-foreground">enrollment codes</dt>
        <dd className="flex flex-wrap gap-x-3 font-mono">
          {agent.enrollmentCodes.length === 0
            ? '(none)'
            : agent.enrollmentCodes.map((c) => (
                <span
                  key={c.code}
                  className={c.current ? 'text-emerald-700' : 'text-red-600'}
                  title={`${c.current ? 'Current' : 'Expired'} · created ${formatDateTime(c.created)}`}
                  data-current={c.current}
                >
                  {c.code}
                </span>
              ))}
        </dd>
      </dl>
      <div>
        <p className="mb-1 font-medium">Tunnel connections</p>
        {error ? (
          <p className="text-red-600">{error}</p>
        ) : tunnels === null ? (
          <p className="text-muted-foreground">Loading…</p>
        ) : tunnels.length === 0 ? (
          <p className="text-muted-foreground">No tunnel connections.</p>
        ) : (
          <div className="relative overflow-x-auto">
            <table className="w-full" aria-label="Tunnel connections">
              <thead className="text-left text-muted-foreground">
                <tr>
                  {['Address', 'Port', 'Since', 'Last seen', 'Forwards'].map((c) => (
                    <th key={c} className="py-1 pr-4 font-medium">
                      {c}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {tunnels.map((t) => (
                  <tr key={t.id} className="border-t">
                    <td className="py-1 pr-4 font-mono">{t.address}</td>
                    <td className="py-1 pr-4 font-mono">{t.port}</td>
                    <td className="whitespace-nowrap py-1 pr-4">
                      <DateTime value={t.createdAt} />
                    </td>
                    <td className="whitespace-nowrap py-1 pr-4">{timeAgo(t.lastSeen, now)}</td>
                    <td className="py-1 pr-4">
                      {Object.keys(t.forwards).length === 0
                        ? '—'
                        : Object.entries(t.forwards)
                            .map(([port, f]) => `port ${port}: ${f.connectionsActive} connection(s)`)
                            .join(', ')}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </div>
  )
}
