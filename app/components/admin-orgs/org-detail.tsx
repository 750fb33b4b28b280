import { Link } from '@remix-run/react'
import { ArrowLeft } from 'lucide-react'
import { PageHeader } from '~/components/page-header'
import { cn } from '~/utils/cn'
import { type AdminOrg } from './admin-org'
import { OrgBilling } from './org-billing'
import { OrgClients } from './org-clients'
import { OrgEvents } from './org-events'
import { OrgMetrics } from './org-metrics'
import { BillingBadge } from './parts'
import { formatCount } from '~/utils/format-time'

const TABS = [
  ['billing', 'Usage'],
  ['project-metrics', 'Projects'],
  ['clients', 'Clients'],
  ['events', 'Events Log'],
] as const

/** Organization detail (?orgId=): tabs Usage (key 'billing'), Projects, Clients, Events Log. */
export function OrgDetail({ org, tab }: { org: AdminOrg; tab: string }) {
  const active = TABS.some(([key]) => key === tab) ? tab : 'billing'
  return (
    <div>
      <Link to="/admin/orgs" className="mb-2 inline-flex items-center gap-1 text-xs text-muted-foreground hover:text-foreground">
        <ArrowLeft className="size-3.5" /> Organizations
      </Link>
      <PageHeader
        title={org.name}
        subtitle={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span>Owner {org.ownerName || org.ownerId}</span>
            <span>{formatCount(org.projectCount)} projects</span>
            <span>{formatCount(org.agentCount)} agents</span>
            <BillingBadge status={org.billingStatus} period={org.billingPeriod} />
            <span className="font-mono text-xs">{org.id}</span>
          </span>
        }
      />
      <nav className="mb-4 flex gap-1 relative overflow-x-auto border-b" role="tablist">
        {TABS.map(([key, label]) => (
          <Link
            key={key}
            to={`/admin/orgs?orgId=${encodeURIComponent(org.id)}&tab=${key}`}
            role="tab"
            aria-selected={active === key}
            className={cn(
              '-mb-px whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium transition-colors',
              active === key ? 'border-primary text-foreground' : 'border-transparent text-muted-foreground hover:text-foreground',
            )}
          >
            {label}
          </Link>
        ))}
      </nav>
      {active === 'billing' ? <OrgBilling key={org.id} org={org} /> : null}
      {active === 'project-metrics' ? <OrgMetrics key={org.id} organizationId={org.id} /> : null}
      {active === 'clients' ? <OrgClients key={org.id} organizationId={org.id} /> : null}
      {active === 'events' ? <OrgEvents key={org.id} organizationId={org.id} /> : null}
    </div>
  )
}
