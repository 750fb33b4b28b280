import { Link } from '@remix-run/react'
import { ChevronDown, ChevronRight } from 'lucide-react'
import { Fragment, useState } from 'react'
import { PageHeader } from '~/components/page-header'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { AdminTable, BillingBadge, td } from './parts'

type OrgRow = { id: string; name: string; ownerId: string; ownerName: string; billingStatus: string; billingPeriod: string }

/** Organizations list: 20 per page; name links to ?orgId=, id expands. */
export function OrgsList({ page, pageToken }: { page: { items: OrgRow[]; nextPageToken: string | null }; pageToken: string | null }) {
  const [open, setOpen] = useState<string | null>(null)
  return (
    <div>
      <PageHeader title="Organizations" subtitle="Every organization on the platform, with its owner and billing agreement" />
      <Card className="p-2">
        <AdminTable head={['', 'Name', 'Owner', 'Billing']} empty={page.items.length === 0} testId="admin-orgs-table">
          {page.items.map((o) => (
            <Fragment key={o.id}>
              <tr className="border-b last:border-0 hover:bg-accent/40">
                <td className={`${td} w-8`}>
                  <button type="button" aria-label={`Show id of ${o.name}`} aria-expanded={open === o.id} onClick={() => setOpen(open === o.id ? null : o.id)} className="rounded p-0.5 hover:bg-accent">
                    {open === o.id ? <ChevronDown className="size-4" /> : <ChevronRight className="size-4" />}
                  </button>
                </td>
                <td className={td}>
                  <Link to={`/admin/orgs?orgId=${encodeURIComponent(o.id)}`} className="font-medium text-primary hover:underline">
                    {o.name}
                  </Link>
                </td>
                <td className={td}>{o.ownerName || o.ownerId}</td>
                <td className={td}>
                  <BillingBadge status={o.billingStatus} period={o.billingPeriod} />
                </td>
              </tr>
              {open === o.id ? (
                <tr className="border-b bg-muted/30">
                  <td />
                  <td colSpan={3} className={`${td} font-mono text-xs`}>
                    id: {o.id} · owner id: {o.ownerId}
                  </td>
                </tr>
              ) : null}
            </Fragment>
          ))}
        </AdminTable>
        <div className="flex items-center justify-end gap-2 px-2 pt-2 text-xs text-muted-foreground">
          <span>{page.items.length} shown</span>
          {pageToken ? (
            <Button asChild variant="outline" size="sm">
              <Link to="/admin/orgs">First page</Link>
            </Button>
          ) : null}
          {page.nextPageToken ? (
            <Button asChild variant="outline" size="sm">
              <Link to={`/admin/orgs?pageToken=${encodeURIComponent(page.nextPageToken)}`}>Next page</Link>
            </Button>
          ) : null}
        </div>
      </Card>
    </div>
  )
}
