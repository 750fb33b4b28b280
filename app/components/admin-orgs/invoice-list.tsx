import { AdminTable, InvoiceStatusBadge, dayOf, formatMoney, td } from './parts'

export type CustomerInvoice = { id: string; reference: string; total: string; currency: string; status: string; dueOn: string | Date | null; sentOn: string | Date | null }

/** Read-only invoice table for organization members holding org.invoices.view. */
export function InvoiceList({ invoices, testId }: { invoices: CustomerInvoice[]; testId?: string }) {
  return (
    <AdminTable head={['Reference', 'Total', 'Status', 'Due', 'Sent on']} empty={invoices.length === 0} testId={testId} className="[&_table]:min-w-[28rem]">
      {invoices.map((i) => (
        <tr key={i.id} className="border-b last:border-0">
          <InvoiceCells invoice={i} />
        </tr>
      ))}
    </AdminTable>
  )
}

/** Reference, total with currency, status, due and sent on: the columns both invoice tables share. */
export function InvoiceCells({ invoice: i }: { invoice: CustomerInvoice }) {
  return (
    <>
      <td className={`${td} whitespace-nowrap font-medium`}>{i.reference}</td>
      <td className={`${td} whitespace-nowrap tabular-nums`}>{formatMoney(i.total, i.currency)}</td>
      <td className={td}>
        <InvoiceStatusBadge status={i.status} />
      </td>
      <td className={`${td} whitespace-nowrap`}>{dayOf(i.dueOn)}</td>
      <td className={`${td} whitespace-nowrap`}>{dayOf(i.sentOn)}</td>
    </>
  )
}
