import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useFetcher, useLoaderData } from '@remix-run/react'
import { Bot } from 'lucide-react'
import { useEffect, useMemo, useState } from 'react'
import { toast } from 'sonner'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { EmptyState, PageHeader } from '~/components/page-header'
import { Badge } from '~/components/ui/badge'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { listSelfEnrollOptions, setSelfEnrollTargets } from '~/domain/agents/self-enroll.server'
import { parseJson } from '~/utils/db.server'
import { requireSiteAdmin } from '~/utils/auth.server'
import { domainCall, formAction, type ActionFailure, type ActionSuccess } from '~/utils/errors.server'
import { useDebouncedCallback } from '~/utils/use-debounced-callback'
import { readFormData } from '~/utils/form.server'

export const meta: MetaFunction = () => [{ title: 'Utility Functions · Admin · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'Utility Functions', to: '/admin/utility' }) }

/** Self-enroll saves this long after the last toggle (spec 01 section 9). */
const SAVE_DELAY_MS = 1000

export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireSiteAdmin(request)
  return { options: await domainCall(() => listSelfEnrollOptions(actor)) }
}

export async function action({ request }: ActionFunctionArgs) {
  const { actor } = await requireSiteAdmin(request)
  const form = await readFormData(request)
  return formAction(() => setSelfEnrollTargets(actor, { targets: parseJson(String(form.get('targets') ?? ''), null) }), 'Self-enroll targets saved')
}

const keyOf = (t: { organizationId: string; projectId: string }) => `${t.organizationId}/${t.projectId}`

export default function AdminUtility() {
  const { options } = useLoaderData<typeof loader>()
  const fetcher = useFetcher<ActionSuccess<unknown> | ActionFailure>()
  const [enabled, setEnabled] = useState(() => new Set(options.filter((o) => o.enabled).map(keyOf)))
  const [unsaved, setUnsaved] = useState(false)

  const groups = useMemo(() => {
    const byOrg = new Map<string, { organizationId: string; organizationName: string; projects: typeof options }>()
    for (const option of options) {
      const group = byOrg.get(option.organizationId) ?? { organizationId: option.organizationId, organizationName: option.organizationName, projects: [] }
      group.projects.push(option)
      byOrg.set(option.organizationId, group)
    }
    return [...byOrg.values()]
  }, [options])

  const save = useDebouncedCallback((next: Set<string>) => {
    const targets = options.filter((o) => next.has(keyOf(o))).map((o) => ({ organizationId: o.organizationId, projectId: o.projectId }))
    fetcher.submit({ targets: JSON.stringify(targets) }, { method: 'post' })
    setUnsaved(false)
  }, SAVE_DELAY_MS)

  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data && !fetcher.data.ok) toast.error(fetcher.data.message)
  }, [fetcher.state, fetcher.data])

  function toggle(key: string, on: boolean) {
    const next = new Set(enabled)
    if (on) next.add(key)
    else next.delete(key)
    setEnabled(next)
    setUnsaved(true)
    save(next)
  }

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
        <CardContent className="p-0">
          {groups.length === 0 ? (
            <div className="p-4">
              <EmptyState icon={<Bot className="size-8" />} title="No projects" text="Self-enroll targets are projects; no organization has one yet." />
            </div>
          ) : (
            groups.map((group) => (
              <section key={group.organizationId} className="border-b last:border-0">
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
                          onChange={(e) => toggle(key, e.target.checked)}
                          aria-label={`${group.organizationName} / ${p.projectName}`}
                        />
                        <label htmlFor={`target-${key}`} className="flex-1 cursor-pointer">
                          {p.projectName}
                        </label>
                        <span className="font-mono text-[11px] text-muted-foreground">{p.projectId}</span>
                      </li>
                    )
                  })}
                </ul>
              </section>
            ))
          )}
        </CardContent>
      </Card>
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
