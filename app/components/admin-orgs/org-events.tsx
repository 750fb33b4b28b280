import { useCallback, useEffect, useState } from 'react'
import { toastError } from '~/components/inline-edit-field'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { DateTime } from '~/components/ui/date-time'
import { callApi } from '~/utils/api-client'
import { AdminTable, td } from './parts'

type EventRow = { id: string; type: string; agentName: string; systemId: string | null; projects: { id: string; name: string }[]; created: string }
type Page = { items: EventRow[]; nextPageToken: string | null }

/** Events Log tab: the organization's raw agent events, 20 per page, newest first. */
export function OrgEvents({ organizationId }: { organizationId: string }) {
  const [pages, setPages] = useState<Page[]>([])
  const [index, setIndex] = useState(0)
  const load = useCallback(
    async (pageToken: string | null) => {
      try {
        return await callApi<Page>('admin/orgEvents', { orgId: organizationId, limit: 20, pageToken })
      } catch (e) {
        toastError(e)
        return null
      }
    },
    [organizationId],
  )
  const reload = useCallback(async () => {
    const first = await load(null)
    if (!first) return
    setPages([first])
    setIndex(0)
  }, [load])
  useEffect(() => void reload(), [reload])
  const next = async () => {
    const token = pages[index]?.nextPageToken
    if (!token) return
    if (!pages[index + 1]) {
      const page = await load(token)
      if (!page) return
      setPages([...pages, page])
    }
    setIndex(index + 1)
  }
  const page = pages[index]
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-2">
        <div>
          <CardTitle>Agent Events Log</CardTitle>
          <CardDescription>The raw events recorded for this organization. Used in billing and dashboard metrics.</CardDescription>
        </div>
        <Button variant="outline" size="sm" onClick={() => void reload()}>
          Reload
        </Button>
      </CardHeader>
      <CardContent>
        <AdminTable head={['Type', 'Agent', 'System id', 'Project(s)', 'Time']} empty={Boolean(page) && page!.items.length === 0} testId="events-table">
          {page?.items.map((e) => (
            <tr key={e.id} className="border-b last:border-0">
              <td className={`${td} font-mono text-xs`}>{e.type}</td>
              <td className={`${td} whitespace-nowrap`}>{e.agentName}</td>
              <td className={`${td} font-mono text-xs`}>{e.systemId ?? '—'}</td>
              <td className={td}>{e.projects.length ? e.projects.map((p) => p.name).join(', ') : <span className="text-muted-foreground">unassigned</span>}</td>
              <td className={`${td} whitespace-nowrap`}>
                <DateTime value={e.created} seconds />
              </td>
            </tr>
          ))}
        </AdminTable>
        <div className="flex items-center justify-end gap-2 pt-2 text-xs text-muted-foreground">
          <span>Page {index + 1}</span>
          <Button variant="outline" size="sm" disabled={index === 0} onClick={() => setIndex(index - 1)}>
            Newer
          </Button>
          <Button variant="outline" size="sm" disabled={!page?.nextPageToken} onClick={() => void next()}>
            Older
          </Button>
        </div>
      </CardContent>
    </Card>
  )
}
