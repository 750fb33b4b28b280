import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from 'lucide-react'
import { memo } from 'react'
import { PAGE_SIZES } from '~/domain/fleet/agents-table-state'
import { Button } from '../ui/button'
import { NativeSelect } from '../ui/native-select'
import { type UpdateTableParams } from './use-table-params'
import { formatCount } from '~/utils/format-time'

/** Under the agents list: the agent count, rows per page (25 is left out of the URL) and the page buttons. */
export const AgentsPager = memo(function AgentsPager({
  total,
  page,
  pageCount,
  limit,
  update,
}: {
  total: number
  page: number
  pageCount: number
  limit: number
  update: UpdateTableParams
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 text-xs text-muted-foreground">
      <span>
        {formatCount(total)} agent{total === 1 ? '' : 's'}
      </span>
      <div className="flex items-center gap-4">
        <label className="flex items-center gap-2">
          Rows per page
          <NativeSelect
            aria-label="Rows per page"
            className="h-7 text-xs"
            value={limit}
            onChange={(e) => update({ limit: e.target.value === '25' ? null : e.target.value }, true)}
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </NativeSelect>
        </label>
        <span>
          Page {page} of {pageCount}
        </span>
        <span className="flex gap-1">
          {[
            { label: 'First page', icon: ChevronsLeft, page: 1, disabled: page <= 1 },
            { label: 'Previous page', icon: ChevronLeft, page: page - 1, disabled: page <= 1 },
            { label: 'Next page', icon: ChevronRight, page: page + 1, disabled: page >= pageCount },
            { label: 'Last page', icon: ChevronsRight, page: pageCount, disabled: page >= pageCount },
          ].map((b) => (
            <Button key={b.label} variant="outline" size="icon" className="size-7" aria-label={b.label} disabled={b.disabled} onClick={() => update({ page: b.page === 1 ? null : String(b.page) })}>
              <b.icon />
            </Button>
          ))}
        </span>
      </div>
    </div>
  )
})
