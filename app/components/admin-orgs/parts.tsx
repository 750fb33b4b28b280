import { type ReactNode } from 'react'
import { Badge } from '~/components/ui/badge'
import { cn } from '~/utils/cn'

/** Dense admin table: header row, body, and a 'No data available' row when empty. */
export function AdminTable({ head, children, empty, className, testId }: { head: ReactNode[]; children: ReactNode; empty: boolean; className?: string; testId?: string }) {
  return (
    <div className={cn('relative overflow-x-auto', className)}>
      <table className="w-full min-w-[36rem] text-sm" data-testid={testId}>
        <thead className="border-b text-left text-xs text-muted-foreground">
          <tr>
            {head.map((h, i) => (
              <th key={i} className="whitespace-nowrap px-2 py-1.5 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {empty ? (
            <tr>
              <td colSpan={head.length} className="py-6 text-center text-muted-foreground">
                No data available
              </td>
            </tr>
          ) : (
            children
          )}
        </tbody>
      </table>
    </div>
  )
}

export const td = 'px-2 py-1.5 align-top'

const BILLING_VARIANT: Record<string, 'secondary' | 'warning' | 'success' | 'destructive' | 'default'> = {
  disabled: 'secondary',
  requested: 'warning',
  enabled: 'success',
  suspended: 'destructive',
  internal: 'default',
}

export function BillingBadge({ status, period }: { status: string; period?: string }) {
  return (
    <span className="inline-flex items-center gap-1.5 whitespace-nowrap">
      <Badge variant={BILLING_VARIANT[status] ?? 'secondary'}>{status}</Badge>
      {period ? <span className="text-xs text-muted-foreground">/ {period}</span> : null}
    </span>
  )
}

const INVOICE_VARIANT: Record<string, 'secondary' | 'warning' | 'success' | 'destructive' | 'outline'> = {
  open: 'warning',
  settled: 'success',
  draft: 'secondary',
  canceled: 'destructive',
}

export const InvoiceStatusBadge = ({ status }: { status: string }) => <Badge variant={INVOICE_VARIANT[status] ?? 'outline'}>{status}</Badge>

/** 1250.00 USD -> "USD 1,250.00" without rounding through floats for display. */
export function formatMoney(total: string, currency: string) {
  const [whole, cents = '00'] = total.split('.')
  return `${currency} ${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents.padEnd(2, '0')}`
}

/** A date-only value (due / sent on) shown as YYYY-MM-DD in UTC, or a dash. */
export const dayOf = (value: string | Date | null | undefined) => (value ? new Date(value).toISOString().slice(0, 10) : '—')

/** Raw fields of a record as a definition list (expanded rows). */
export function RawFields({ record }: { record: Record<string, unknown> }) {
  return (
    <dl className="grid grid-cols-[minmax(8rem,max-content)_1fr] gap-x-4 gap-y-0.5 font-mono text-xs">
      {Object.entries(record).map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-muted-foreground">{k}</dt>
          <dd className="break-all">{v === null || v === undefined ? 'None' : typeof v === 'object' ? JSON.stringify(v) : String(v)}</dd>
        </div>
      ))}
    </dl>
  )
}
