import { ChevronDown, ChevronRight } from 'lucide-react'
import { Fragment, useCallback, useEffect, useRef, useState } from 'react'
import { toastError } from '~/components/inline-edit-field'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { DateTime } from '~/components/ui/date-time'
import { callApi } from '~/utils/api-client'
import { AdminTable, RawFields, td } from './parts'

type Client = Record<string, unknown> & { id: string; clientName: string; product: string; version: string; lastSeen: string | null; lastIp: string | null; nextNotice: string | null }
type SystemRow = { id: string; key: string; name: string; alertsCount: number; deviationsCount: number; devicesCount: number; project: { name: string } | null }

/** Clients tab: the organization's agents, infinite scroll plus 'Load more'; systems load on expand. */
export function OrgClients({ organizationId }: { organizationId: string }) {
  const [items, setItems] = useState<Client[]>([])
  const [token, setToken] = useState<string | null>(null)
  const [done, setDone] = useState(false)
  const [loading, setLoading] = useState(false)
  const [open, setOpen] = useState<string | null>(null)
  const sentinel = useRef<HTMLDivElement>(null)

  const load = useCallback(async () => {
    if (loading || done) return
    setLoading(true)
    try {
      const page = await callApi<{ items: Client[]; nextPageToken: string | null }>('admin/orgClients', { orgId: organizationId, pageToken: token })
      setItems((prev) => [...prev, ...page.items])
      setToken(page.nextPageToken)
      setDone(!page.nextPageToken)
    } catch (e) {
      toastError(e)
      setDone(true)
    } finally {
      setLoading(false)
    }
  }, [organizationId, token, loading, done])

  useEffect(() => {
    const node = sentinel.current
    if (!node) return
    const observer = new IntersectionObserver((entries) => entries[0]?.isIntersecting && void load())
    observer.observe(node)
    return () => observer.disconnect()
  }, [load])

  return (
    <Card>
      <CardHeader>
        <CardTitle>Clients</CardTitle>
        <CardDescription>Agents enrolled into this organization. Expand a row for its raw fields and systems.</CardDescription>
      </CardHeader>
      <CardContent>
        <AdminTable head={['', 'Name', 'Product/version', 'Last Seen', 'Last IP']} empty={done && items.length === 0} testId="clients-table">
          {items.map((c) => (
            <Fragment key={c.id}>
              <tr className="border-b last:border-0 hover:bg-accent/40">
                <td className={`${td} w-8`}>
                  <button type="button" aria-label={`Expand ${c.clientName || c.id}`} aria-expanded={open === c.id} onClick={() => setOpen(open === c.id ? null : c.id)} className="rounded p-0.5 hover:bg-accent">
                    {open === c.id ? <ChevronDown className="size-4" /> : <ChevronRight className="size-4" />}
                  </button>
                </td>
                <td className={td}>
                  <div className="font-medium">{c.clientName || c.id}</div>
                  <div className="font-mono text-xs text-muted-foreground">{c.id}</div>
                </td>
                <td className={td}>
                  {c.product || '—'} {c.version ? <span className="text-muted-foreground">/ {c.version}</span> : null}
                </td>
                <td className={`${td} whitespace-nowrap`}>{c.lastSeen ? <DateTime value={c.lastSeen} /> : 'None'}</td>
                <td className={`${td} font-mono text-xs`}>{c.lastIp || 'None'}</td>
              </tr>
              {open === c.id ? (
                <tr className="border-b bg-muted/30">
                  <td />
                  <td colSpan={4} className="px-2 py-3">
                    <div className="grid gap-4 lg:grid-cols-2">
                      <RawFields record={{ ...c, nextNotice: c.nextNotice ? new Date(c.nextNotice).toISOString() : null }} />
                      <ClientSystems agentId={c.id} />
                    </div>
                  </td>
                </tr>
              ) : null}
            </Fragment>
          ))}
        </AdminTable>
        <div ref={sentinel} className="flex items-center justify-center gap-3 pt-2 text-xs text-muted-foreground">
          <span>{items.length} loaded</span>
          {!done ? (
            <Button variant="link" size="sm" onClick={() => void load()} disabled={loading}>
              {loading ? 'Loading…' : 'Load more'}
            </Button>
          ) : null}
        </div>
      </CardContent>
    </Card>
  )
}

function ClientSystems({ agentId }: { agentId: string }) {
  const [systems, setSystems] = useState<SystemRow[] | null>(null)
  const load = useCallback(async () => {
    setSystems(null)
    try {
      setSystems((await callApi<{ items: SystemRow[] }>('admin/clientSystems', { agentId })).items)
    } catch (e) {
      toastError(e)
      setSystems([])
    }
  }, [agentId])
  useEffect(() => void load(), [load])
  return (
    <div>
      <div className="mb-1 flex items-center gap-2 text-xs font-medium">
        Systems
        <button type="button" className="text-primary hover:underline" onClick={() => void load()}>
          Reload
        </button>
      </div>
      {systems === null ? (
        <p className="text-xs text-muted-foreground">Loading…</p>
      ) : systems.length === 0 ? (
        <p className="text-xs text-muted-foreground">No systems reported</p>
      ) : (
        <table className="w-full text-xs" data-testid="client-systems">
          <thead className="text-left text-muted-foreground">
            <tr>
              <th className="py-0.5 font-medium">System</th>
              <th className="font-medium">Project</th>
              <th className="font-medium">Devices</th>
              <th className="font-medium">Alerts</th>
              <th className="font-medium">Deviations</th>
            </tr>
          </thead>
          <tbody>
            {systems.map((s) => (
              <tr key={s.id}>
                <td className="py-0.5">
                  {s.name || s.key} <span className="font-mono text-muted-foreground">{s.key}</span>
                </td>
                <td>{s.project?.name ?? 'unassigned'}</td>
                <td>{s.devicesCount}</td>
                <td>{s.alertsCount}</td>
                <td>{s.deviationsCount}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  )
}
