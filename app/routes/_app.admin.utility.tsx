import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useFetcher, useLoaderData } from '@remix-run/react'
import { Bot, Search } from 'lucide-react'
import { useEffect, useId, useMemo, useRef, useState } from 'react'
import { toast } from 'sonner'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { EmptyState, PageHeader } from '~/components/page-header'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Input } from '~/components/ui/input'
import { searchSelfEnrollOptions, setSelfEnrollTargets, type SelfEnrollOption } from '~/domain/agents/self-enroll.server'
import { parseJson } from '~/utils/db.server'
import { requireSiteAdmin } from '~/utils/auth.server'
import { domainCall, formAction, type ActionFailure, type ActionSuccess } from '~/utils/errors.server'
import { useDebouncedCallback } from '~/utils/use-debounced-callback'
import { readFormData } from '~/utils/form.server'

export const meta: MetaFunction = () => [{ title: 'Utility Functions · Admin · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'Utility Functions', to: '/admin/utility' }) }

/** Self-enroll saves this long after the last toggle (spec 01 section 9). */
const SAVE_DELAY_MS = 1000
/** The server is asked this long after the last keystroke of a search (the spec's name-filter debounce, 02 section 9). */
const SEARCH_DELAY_MS = 300

export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireSiteAdmin(request)
  const params = new URL(request.url).searchParams
  const search = { query: params.get('q') ?? undefined, offset: params.get('offset') ?? undefined }
  return { query: search.query?.trim() ?? '', ...(await domainCall(() => searchSelfEnrollOptions(actor, search))) }
}

export async function action({ request }: ActionFunctionArgs) {
  const { actor } = await requireSiteAdmin(request)
  const form = await readFormData(request)
  return formAction(() => setSelfEnrollTargets(actor, { targets: parseJson(String(form.get('targets') ?? ''), null) }), 'Self-enroll targets saved')
}

type Option = SelfEnrollOption
const keyOf = (t: { organizationId: string; projectId: string }) => `${t.organizationId}/${t.projectId}`

/** Options in runs of one organization each (they come sorted by organization). */
function groupByOrganization(options: Option[]) {
  const groups: { organizationId: string; organizationName: string; projects: Option[] }[] = []
  for (const option of options) {
    const last = groups.at(-1)
    if (last?.organizationId === option.organizationId) last.projects.push(option)
    else groups.push({ organizationId: option.organizationId, organizationName: option.organizationName, projects: [option] })
  }
  return groups
}

export default function AdminUtility() {
  const initial = useLoaderData<typeof loader>()
  const fetcher = useFetcher<ActionSuccess<unknown> | ActionFailure>()
  const search = useFetcher<typeof loader>()
  // the switched-on pairs by key: what a save sends, whatever the search shows
  const [enabled, setEnabled] = useState(() => new Map(initial.enabled.map((o) => [keyOf(o), o])))
  const [unsaved, setUnsaved] = useState(false)
  const [query, setQuery] = useState(initial.query)
  const [results, setResults] = useState({ query: initial.query, options: initial.options, nextOffset: initial.nextOffset })
  const listId = useId()

  // a search answer replaces the list, or extends it when it was asked by Show more
  const appending = useRef(false)
  useEffect(() => {
    const data = search.data
    if (!data || search.state !== 'idle') return
    setResults((current) => (appending.current && data.query === current.query ? { query: data.query, options: [...current.options, ...data.options], nextOffset: data.nextOffset } : data))
    appending.current = false
  }, [search.data, search.state])

  const ask = (q: string, offset = 0) => {
    appending.current = offset > 0
    search.load(`/admin/utility?${new URLSearchParams({ q, ...(offset ? { offset: String(offset) } : {}) })}`)
  }
  const askAsTyped = useDebouncedCallback((q: string) => ask(q), SEARCH_DELAY_MS)

  const save = useDebouncedCallback((next: Map<string, Option>) => {
    const targets = [...next.values()].map((o) => ({ organizationId: o.organizationId, projectId: o.projectId }))
    fetcher.submit({ targets: JSON.stringify(targets) }, { method: 'post' })
    setUnsaved(false)
  }, SAVE_DELAY_MS)

  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data && !fetcher.data.ok) toast.error(fetcher.data.message)
  }, [fetcher.state, fetcher.data])

  function toggle(option: Option, on: boolean) {
    const next = new Map(enabled)
    if (on) next.set(keyOf(option), option)
    else next.delete(keyOf(option))
    setEnabled(next)
    setUnsaved(true)
    save(next)
  }

  const groups = useMemo(() => groupByOrganization(results.options), [results.options])
  const switchedOn = [...enabled.values()]
  const pending = unsaved || fetcher.state !== 'idle'
  return (
    <div>
      <PageHeader title="Utility Functions" />
      <Card>
        <CardHeader className="flex-row items-start justify-between gap-4">
          <div className="flex flex-col gap-1">
            <CardTitle>Agent Self-Enroll</CardTitle>
            <CardDescription>Agents may enroll themselves into the organization and project pairs switched on here.</CardDescription>
          </div>
          {pending ? (
            <Badge variant="warning" data-testid="self-enroll-state">
              Unsaved
            </Badge>
          ) : fetcher.data?.ok ? (
            <Badge variant="success" data-testid="self-enroll-state">
              Saved
            </Badge>
          ) : null}
        </CardHeader>
        <CardContent className="flex flex-col gap-3 border-b pb-4">
          <p className="text-sm text-muted-foreground" data-testid="self-enroll-on">
            {switchedOn.length === 0 ? 'No pair is switched on.' : `Switched on: ${switchedOn.map((o) => `${o.organizationName} / ${o.projectName}`).join(', ')}`}
          </p>
          <Input
            type="search"
            role="combobox"
            aria-expanded={results.options.length > 0}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-label="Search organizations and projects"
            placeholder="Search organizations and projects"
            value={query}
            maxLength={200}
            onChange={(e) => {
              setQuery(e.target.value)
              askAsTyped(e.target.value.trim())
            }}
            className="max-w-md"
          />
        </CardContent>
        <CardContent className="p-0" id={listId} aria-busy={search.state !== 'idle'}>
          {groups.length === 0 ? (
            <div className="p-4">
              {results.query ? (
                <EmptyState icon={<Search className="size-8" />} title="No match" text={`No organization or project name contains '${results.query}'.`} />
              ) : (
                <EmptyState icon={<Bot className="size-8" />} title="No projects" text="Self-enroll targets are projects; no organization has one yet." />
              )}
            </div>
          ) : (
            groups.map((group, index) => (
              <section key={`${group.organizationId}-${index}`} className="border-b last:border-0">
                <h3 className="bg-muted/40 px-4 py-1.5 text-xs font-semibold text-muted-foreground">{group.organizationName}</h3>
                <ul>
                  {group.projects.map((p) => {
                    const key = keyOf(p)
                    return (
                      <li key={key} className="flex items-center gap-3 px-4 py-1.5 text-sm">
                        <input
                          id={`target-${key}`}
                          type="checkbox"
                          className="size-4 accent-primary"
                          checked={enabled.has(key)}
                          onChange={(e) => toggle(p, e.target.checked)}
                          aria-label={`${group.organizationName} / ${p.projectName}`}
                        />
                        <label htmlFor={`target-${key}`} className="flex-1 cursor-pointer">
                          {p.projectName}
                        </label>
                        <span className="hidden font-mono text-[11px] text-muted-foreground sm:inline">{p.projectId}</span>
                      </li>
                    )
                  })}
                </ul>
              </section>
            ))
          )}
          {results.nextOffset !== null ? (
            <div className="border-t p-3">
              <Button variant="outline" size="sm" disabled={search.state !== 'idle'} onClick={() => ask(results.query, results.nextOffset ?? 0)}>
                Show more
              </Button>
            </div>
          ) : null}
        </CardContent>
      </Card>
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
