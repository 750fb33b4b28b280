import { type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { ArrowDownWideNarrow, ArrowUpNarrowWide, Building2, Cpu, FolderTree, Plus, Users } from 'lucide-react'
import { useMemo, useState, type ReactNode } from 'react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { MemberTags } from '~/components/member-tags'
import { PageHeader } from '~/components/page-header'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { listOrganizationsForUser } from '~/domain/organizations/organizations.server'
import { callApi } from '~/utils/api-client'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'
import { useDebouncedCallback } from '~/utils/use-debounced-callback'

/** The sort field cycles in this order; user/updateProfile accepts exactly these (profile.server.ts). */
const SORT_LABELS = { name: 'Name', projectCount: 'Project Count', agentCount: 'Agent Count', memberCount: 'Member Count' } as const
type SortField = keyof typeof SORT_LABELS
type SortDirection = 'asc' | 'desc'
const ORG_SORT_FIELDS = Object.keys(SORT_LABELS) as SortField[]

/** preferenceOrgIndexSort is 'field:direction'; anything else falls back to name ascending. */
function parseSort(value: string | null): { field: SortField; direction: SortDirection } {
  const [field, direction] = (value ?? '').split(':')
  return {
    field: (ORG_SORT_FIELDS as string[]).includes(field) ? (field as SortField) : 'name',
    direction: direction === 'desc' ? 'desc' : 'asc',
  }
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { actor, user } = await requireUser(request)
  const organizations = await domainCall(() => listOrganizationsForUser(actor))
  return { organizations, sort: parseSort(user.preferenceOrgIndexSort) }
}

export const handle = { breadcrumb: () => ({ label: 'Organizations', to: '.' }) }

export default function OrganizationList() {
  const { organizations, sort: saved } = useLoaderData<typeof loader>()
  const [sort, setSort] = useState(saved)
  const save = useDebouncedCallback((value: typeof sort) => {
    // A failed preference save is only logged (spec 02 section 8).
    callApi('user/updateProfile', { preferenceOrgIndexSort: `${value.field}:${value.direction}` }).catch((e) => console.warn('Saving the sort order failed', e))
  }, 1000)
  const change = (next: typeof sort) => {
    setSort(next)
    save(next)
  }
  const sorted = useMemo(() => {
    const factor = sort.direction === 'asc' ? 1 : -1
    // The loader lists them in reading order ("Venue 2" before "Venue 10", app/utils/name-order.ts):
    // names compare by that position, so the browser needs no collator of its own.
    const nameRank = new Map(organizations.map((o, i) => [o.id, i]))
    const byName = (a: (typeof organizations)[number], b: (typeof organizations)[number]) => nameRank.get(a.id)! - nameRank.get(b.id)!
    return [...organizations].sort((a, b) => {
      // A count the user cannot see (null) sorts below every real count.
      const order = sort.field === 'name' ? byName(a, b) : (a[sort.field] ?? -1) - (b[sort.field] ?? -1)
      return factor * (order || byName(a, b))
    })
  }, [organizations, sort])
  const nextField = ORG_SORT_FIELDS[(ORG_SORT_FIELDS.indexOf(sort.field) + 1) % ORG_SORT_FIELDS.length]

  return (
    <div>
      <PageHeader
        title="Organizations"
        subtitle="The organizations you own or belong to"
        actions={
          <>
            <div className="flex items-center rounded-md border bg-card shadow-sm">
              <Button variant="ghost" className="rounded-r-none" onClick={() => change({ ...sort, field: nextField })} title={`Sort by ${SORT_LABELS[nextField]} next`}>
                Sort: {SORT_LABELS[sort.field]}
              </Button>
              <Button
                variant="ghost"
                size="icon"
                className="rounded-l-none border-l"
                aria-label={sort.direction === 'asc' ? 'Ascending' : 'Descending'}
                title={sort.direction === 'asc' ? 'Ascending' : 'Descending'}
                onClick={() => change({ ...sort, direction: sort.direction === 'asc' ? 'desc' : 'asc' })}
              >
                {sort.direction === 'asc' ? <ArrowUpNarrowWide /> : <ArrowDownWideNarrow />}
              </Button>
            </div>
            <Button asChild>
              <Link to="/organization/create">
                <Plus /> Create Organization
              </Link>
            </Button>
          </>
        }
      />
      {sorted.length === 0 ? (
        <Card className="mx-auto mt-8 flex max-w-md flex-col items-center gap-2 px-6 py-10 text-center">
          <Building2 className="size-8 text-muted-foreground" />
          <p className="text-sm font-semibold">No Accessible Organizations</p>
          <p className="text-sm text-muted-foreground">You are not a member of any organization yet. Create an organization, or ask an organization admin to invite you to join one.</p>
          <Button asChild className="mt-2">
            <Link to="/organization/create">
              <Plus /> Create Organization
            </Link>
          </Button>
        </Card>
      ) : (
        <div className="grid grid-cols-[repeat(auto-fill,minmax(18rem,1fr))] gap-4">
          {sorted.map((org) => (
            <Card key={org.id} data-testid="organization-card" className="flex flex-col transition-shadow hover:shadow-md">
              <Link to={org.linkTo} className="flex flex-1 flex-col gap-1 px-4 pb-3 pt-4">
                <div className="flex items-start justify-between gap-2">
                  <h2 className="truncate text-[15px] font-semibold">{org.name}</h2>
                  <div className="flex shrink-0 gap-1">
                    {org.isDefault ? <Badge>Default</Badge> : null}
                    <MemberTags isOwner={org.isOwner} />
                  </div>
                </div>
                <p className="line-clamp-2 min-h-[2.5rem] text-sm text-muted-foreground">{org.description || 'No description'}</p>
              </Link>
              <div className="grid grid-cols-3 border-t text-center">
                <Count to={`/organization/${org.id}/projects`} icon={<FolderTree />} label="Projects" value={org.projectCount} />
                <Count to={`/organization/${org.id}/agents`} icon={<Cpu />} label="Agents" value={org.agentCount} />
                <Count to={`/organization/${org.id}/members`} icon={<Users />} label="Members" value={org.memberCount} />
              </div>
            </Card>
          ))}
        </div>
      )}
    </div>
  )
}

/** One count of a card, linking to its page; a count the user cannot see shows a dash and no link. */
function Count({ to, icon, label, value }: { to: string; icon: ReactNode; label: string; value: number | null }) {
  const body = (
    <>
      <span className="text-base font-semibold tabular-nums">{value ?? '—'}</span>
      <span className="flex items-center gap-1 text-[11px] text-muted-foreground [&_svg]:size-3">
        {icon}
        {label}
      </span>
    </>
  )
  const cell = 'flex flex-col items-center gap-0.5 border-r py-2 last:border-r-0'
  return value === null ? (
    <div className={cell} data-testid={`count-${label.toLowerCase()}`} title={`You cannot view this organization's ${label.toLowerCase()}`}>
      {body}
    </div>
  ) : (
    <Link to={to} className={`${cell} hover:bg-accent`} data-testid={`count-${label.toLowerCase()}`}>
      {body}
    </Link>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
