import { Pencil, Plus, Trash2 } from 'lucide-react'
import { useCallback, useEffect, useState } from 'react'
import { toast } from 'sonner'
import { toastError } from '~/components/inline-edit-field'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { ConfirmDialog, Dialog } from '~/components/ui/dialog'
import { Field, issueFor } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { NativeSelect } from '~/components/ui/native-select'
import { ApiError, callApi } from '~/utils/api-client'
import { InvoiceCells } from './invoice-list'
import { AdminTable, td } from './parts'

export type InvoiceRow = {
  id: string
  reference: string
  total: string
  currency: string
  status: string
  dueOn: string | null
  sentOn: string | null
  settledOn: string | null
  created: string
  author: { userName: string }
}

type Page = { items: InvoiceRow[]; nextPageToken: string | null }
const PAGE = 24
const STATUSES = ['open', 'settled', 'draft', 'canceled'] as const

export const INVOICE_NOTE =
  'Invoices here are manual entries shown to the organization admins. Real invoicing happens in an external accounting system.'

/** Staff invoice records: create, edit (status and dates; total and reference locked), delete with confirmation. */
export function OrgInvoices({ organizationId }: { organizationId: string }) {
  const [pages, setPages] = useState<Page[]>([])
  const [index, setIndex] = useState(0)
  const [editing, setEditing] = useState<InvoiceRow | 'new' | null>(null)
  const [deleting, setDeleting] = useState<InvoiceRow | null>(null)
  const [busy, setBusy] = useState(false)

  const reload = useCallback(async () => {
    try {
      const first = await callApi<Page>('admin/invoices', { organizationId, limit: PAGE })
      setPages([first])
      setIndex(0)
    } catch (e) {
      toastError(e)
    }
  }, [organizationId])
  useEffect(() => void reload(), [reload])

  const next = async () => {
    const token = pages[index]?.nextPageToken
    if (!token) return
    if (!pages[index + 1]) {
      const page = await callApi<Page>('admin/invoices', { organizationId, limit: PAGE, pageToken: token })
      setPages([...pages, page])
    }
    setIndex(index + 1)
  }
  const remove = async () => {
    if (!deleting) return
    setBusy(true)
    try {
      await callApi('admin/deleteInvoice', { organizationId, id: deleting.id })
      toast.success('Invoice Deleted')
      setDeleting(null)
      await reload()
    } catch (e) {
      toastError(e)
    } finally {
      setBusy(false)
    }
  }
  const page = pages[index]
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-2">
        <div>
          <CardTitle>Invoices</CardTitle>
          <CardDescription>{INVOICE_NOTE}</CardDescription>
        </div>
        <Button size="sm" onClick={() => setEditing('new')}>
          <Plus /> New Invoice
        </Button>
      </CardHeader>
      <CardContent>
        <AdminTable head={['Reference', 'Total', 'Status', 'Due', 'Sent on', '']} empty={!page || page.items.length === 0} testId="invoices-table">
          {page?.items.map((i) => (
            <tr key={i.id} className="border-b last:border-0">
              <InvoiceCells invoice={i} />
              <td className={`${td} whitespace-nowrap text-right`}>
                <Button variant="ghost" size="icon" aria-label={`Edit invoice ${i.reference}`} onClick={() => setEditing(i)}>
                  <Pencil />
                </Button>
                <Button variant="ghost" size="icon" aria-label={`Delete invoice ${i.reference}`} onClick={() => setDeleting(i)}>
                  <Trash2 />
                </Button>
              </td>
            </tr>
          ))}
        </AdminTable>
        {index > 0 || page?.nextPageToken ? (
          <div className="flex justify-end gap-2 pt-2">
            <Button variant="outline" size="sm" disabled={index === 0} onClick={() => setIndex(index - 1)}>
              Previous
            </Button>
            <Button variant="outline" size="sm" disabled={!page?.nextPageToken} onClick={() => void next()}>
              Next
            </Button>
          </div>
        ) : null}
      </CardContent>
      {editing ? (
        <InvoiceDialog
          organizationId={organizationId}
          invoice={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null)
            void reload()
          }}
        />
      ) : null}
      <ConfirmDialog
        open={Boolean(deleting)}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete Invoice"
        text={`Delete invoice ${deleting?.reference ?? ''}? Organization admins will no longer see it.`}
        confirmLabel="Delete"
        destructive
        busy={busy}
        onConfirm={() => void remove()}
      />
    </Card>
  )
}

const dateInput = (value: string | null) => (value ? new Date(value).toISOString().slice(0, 10) : '')

function InvoiceDialog({ organizationId, invoice, onClose, onSaved }: { organizationId: string; invoice: InvoiceRow | null; onClose: () => void; onSaved: () => void }) {
  const [reference, setReference] = useState(invoice?.reference ?? '')
  const [total, setTotal] = useState(invoice?.total ?? '')
  const [currency, setCurrency] = useState(invoice?.currency ?? 'USD')
  const [status, setStatus] = useState(invoice?.status ?? 'open')
  const [dueOn, setDueOn] = useState(dateInput(invoice?.dueOn ?? null))
  const [sentOn, setSentOn] = useState(dateInput(invoice?.sentOn ?? null))
  const [issues, setIssues] = useState<{ path: string; message: string }[]>([])
  const [busy, setBusy] = useState(false)
  const save = async () => {
    // The form's own checks, with the server's wording; the server enforces the same rules.
    const local = [...(total.trim() ? [] : [{ path: 'total', message: 'Invoice Total' }]), ...(status ? [] : [{ path: 'status', message: 'Status required' }])]
    setIssues(local)
    if (local.length) return
    setBusy(true)
    const day = (v: string) => (v ? `${v}T00:00:00.000Z` : null)
    try {
      if (invoice) {
        await callApi('admin/updateInvoice', { organizationId, id: invoice.id, invoice: { status, currency, dueOn: day(dueOn), sentOn: day(sentOn) } })
        toast.success('Invoice Updated')
      } else {
        await callApi('admin/createInvoice', { organizationId, invoice: { reference: reference.trim() || null, total: total.trim(), currency, status, dueOn: day(dueOn), sentOn: day(sentOn) } })
        toast.success('Invoice Created')
      }
      onSaved()
    } catch (e) {
      if (e instanceof ApiError && e.issues.length) setIssues(e.issues)
      else toastError(e)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={invoice ? 'Edit Invoice' : 'New Invoice'}
      description={invoice ? 'Total and reference cannot be changed on an existing invoice.' : 'Leave the reference empty to use the date.'}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void save()} disabled={busy}>
            Save
          </Button>
        </>
      }
    >
      <div className="grid grid-cols-2 gap-3">
        <Field label="Reference" error={issueFor(issues, 'reference')} className="col-span-2">
          {(p) => <Input {...p} value={reference} disabled={Boolean(invoice)} placeholder="auto: today's date" onChange={(e) => setReference(e.target.value)} />}
        </Field>
        <Field label="Total" error={issueFor(issues, 'total')}>
          {(p) => <Input {...p} value={total} disabled={Boolean(invoice)} inputMode="decimal" placeholder="1250.00" onChange={(e) => setTotal(e.target.value)} />}
        </Field>
        <Field label="Currency" error={issueFor(issues, 'currency')}>
          {(p) => <Input {...p} value={currency} maxLength={3} onChange={(e) => setCurrency(e.target.value.toUpperCase())} />}
        </Field>
        <Field label="Status" error={issueFor(issues, 'status')}>
          {(p) => (
            <NativeSelect {...p} value={status} onChange={(e) => setStatus(e.target.value)}>
              <option value="">—</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
        <Field label="Due (UTC)" error={issueFor(issues, 'dueOn')}>
          {(p) => <Input {...p} type="date" value={dueOn} onChange={(e) => setDueOn(e.target.value)} />}
        </Field>
        <Field label="Sent on (UTC)" error={issueFor(issues, 'sentOn')} className="col-span-2 sm:col-span-1">
          {(p) => <Input {...p} type="date" value={sentOn} onChange={(e) => setSentOn(e.target.value)} />}
        </Field>
      </div>
    </Dialog>
  )
}
