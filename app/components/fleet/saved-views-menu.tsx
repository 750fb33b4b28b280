import { useFetcher } from '@remix-run/react'
import { Bookmark, Trash2 } from 'lucide-react'
import { useEffect, useState } from 'react'
import { toast } from 'sonner'
import { SAVED_VIEW_PARAMS, savedViewQuery } from '~/domain/saved-views/saved-view-query'
import type { loader as savedViewsLoader } from '~/routes/resources.saved-views'
import type { ActionFailure, ActionSuccess } from '~/utils/errors.server'
import { Button } from '../ui/button'
import { Input } from '../ui/input'
import { useAfterHydration } from '../ui/after-hydration'
import { ClosedMenuTrigger } from '../ui/dropdown-menu'
import { Popover, PopoverContent, PopoverTrigger, TOOLBAR_TRIGGER_CLASS } from './popover'
import { type UpdateTableParams } from './use-table-params'

const ACTION = '/resources/saved-views'

/**
 * The agents toolbar's Views menu: the person's named filter sets of this organization (apply one
 * with a click, delete it with its bin) and saving the current filters, sorting and columns under
 * a name (an existing name is replaced). The list loads when the menu first opens.
 */
export function SavedViewsMenu({ organizationId, params, update }: { organizationId: string; params: URLSearchParams; update: UpdateTableParams }) {
  const [open, setOpen] = useState(false)
  const [name, setName] = useState('')
  // closed until hydrated: the server renders the trigger alone
  const live = useAfterHydration()
  const list = useFetcher<typeof savedViewsLoader>()
  const change = useFetcher<ActionSuccess<unknown> | ActionFailure>()
  const { load } = list
  const loaded = Boolean(list.data)
  useEffect(() => {
    if (open && !loaded) load(`${ACTION}?${new URLSearchParams({ organizationId })}`)
  }, [open, loaded, load, organizationId])
  useEffect(() => {
    if (change.state !== 'idle' || !change.data) return
    if (change.data.ok) {
      if (change.data.message) toast.success(change.data.message)
      setName('')
    } else if (!change.data.issues.length) toast.error(change.data.message)
  }, [change.state, change.data])

  const current = savedViewQuery(params.toString())
  const views = list.data?.views ?? []
  const failure = change.data && !change.data.ok ? change.data : null
  const apply = (query: string) => {
    const view = new URLSearchParams(query)
    update(Object.fromEntries(SAVED_VIEW_PARAMS.map((key) => [key, view.get(key)])), true)
    setOpen(false)
  }
  const save = () => change.submit({ intent: 'save', organizationId, name, query: current }, { method: 'post', action: ACTION })

  const face = (
    <>
      <Bookmark /> Views
    </>
  )
  if (!live) return <ClosedMenuTrigger popup="dialog" className={TOOLBAR_TRIGGER_CLASS}>{face}</ClosedMenuTrigger>
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger className={TOOLBAR_TRIGGER_CLASS}>{face}</PopoverTrigger>
      <PopoverContent align="end" className="w-72 p-2" aria-label="Saved views">
        <p className="px-1 pb-1 text-xs font-semibold text-muted-foreground">Saved views</p>
        {!list.data ? (
          <p className="px-1 py-2 text-xs text-muted-foreground">Loading views…</p>
        ) : views.length === 0 ? (
          <p className="px-1 py-2 text-xs text-muted-foreground">No saved views yet. Filter, sort or hide columns, then save them here under a name.</p>
        ) : (
          <ul className="flex max-h-64 flex-col overflow-y-auto">
            {views.map((v) => (
              <li key={v.id} className="flex items-center gap-1">
                <button
                  type="button"
                  onClick={() => apply(v.query)}
                  aria-current={v.query === current ? 'true' : undefined}
                  className="min-h-9 min-w-0 flex-1 truncate rounded px-2 text-left hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring aria-[current]:font-semibold"
                >
                  {v.name}
                </button>
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-9 shrink-0 text-muted-foreground"
                  aria-label={`Delete view ${v.name}`}
                  disabled={change.state !== 'idle'}
                  onClick={() => change.submit({ intent: 'delete', organizationId, id: v.id }, { method: 'post', action: ACTION })}
                >
                  <Trash2 />
                </Button>
              </li>
            ))}
          </ul>
        )}
        <form
          className="mt-2 flex flex-col gap-1.5 border-t pt-2"
          onSubmit={(e) => {
            e.preventDefault()
            save()
          }}
        >
          <div className="flex gap-1.5">
            <Input aria-label="Name of the view" placeholder="Name this view…" value={name} maxLength={60} onChange={(e) => setName(e.target.value)} className="h-9" aria-invalid={Boolean(failure?.issues.length)} />
            <Button type="submit" size="sm" className="h-9" disabled={change.state !== 'idle' || !name.trim() || !current}>
              Save
            </Button>
          </div>
          {failure?.issues.length ? <p className="text-xs text-destructive">{failure.issues.map((i) => i.message).join(' ')}</p> : null}
          {!current ? <p className="text-xs text-muted-foreground">Nothing to save yet: the list shows its defaults.</p> : null}
        </form>
      </PopoverContent>
    </Popover>
  )
}
