import { Check, PlusCircle } from 'lucide-react'
import { memo } from 'react'
import { cn } from '~/utils/cn'
import { useAfterHydration } from '../ui/after-hydration'
import { ClosedMenuTrigger } from '../ui/dropdown-menu'
import { Popover, PopoverContent, PopoverTrigger, TOOLBAR_TRIGGER_CLASS } from './popover'

/** for the live and the closed trigger */
const TRIGGER_CLASS = cn(TOOLBAR_TRIGGER_CLASS, 'border-dashed')

/**
 * A toolbar filter with checkable options and their counts. The selection shows as chips, or as
 * a count summary when more than 2 values are selected. Memoized: the toolbar renders on every
 * router update, and four Radix popovers per render were a good part of a live reload's cost.
 */
export const FacetedFilter = memo(function FacetedFilter({
  title,
  options,
  selected,
  onChange,
  loading,
  onOpenChange,
}: {
  title: string
  options: { value: string; count?: number }[]
  selected: string[]
  onChange: (values: string[]) => void
  loading?: boolean
  onOpenChange?: (open: boolean) => void
}) {
  const toggle = (value: string) => onChange(selected.includes(value) ? selected.filter((v) => v !== value) : [...selected, value])
  const live = useAfterHydration()
  const face = (
    <>
      <PlusCircle />
      {title}
      {selected.length ? (
        <span className="ml-1 flex gap-1 border-l pl-2">
          {selected.length > 2 ? (
            <span className="rounded bg-secondary px-1 text-xs font-normal">{selected.length} selected</span>
          ) : (
            selected.map((v) => (
              <span key={v} className="rounded bg-secondary px-1 text-xs font-normal">
                {v}
              </span>
            ))
          )}
        </span>
      ) : null}
    </>
  )
  // closed until hydrated: the server renders the trigger alone, not the Radix root
  if (!live) return <ClosedMenuTrigger popup="dialog" className={TRIGGER_CLASS}>{face}</ClosedMenuTrigger>
  return (
    <Popover onOpenChange={onOpenChange}>
      <PopoverTrigger className={TRIGGER_CLASS}>{face}</PopoverTrigger>
      <PopoverContent className="max-h-[300px] w-56 overflow-y-auto" aria-label={`${title} filter`}>
        {loading ? <p className="px-2 py-1.5 text-xs text-muted-foreground">Loading…</p> : null}
        {!loading && !options.length ? <p className="px-2 py-1.5 text-xs text-muted-foreground">No results found.</p> : null}
        {options.map((o) => {
          const checked = selected.includes(o.value)
          return (
            <button
              key={o.value}
              type="button"
              role="menuitemcheckbox"
              aria-checked={checked}
              onClick={() => toggle(o.value)}
              className="flex w-full items-center gap-2 rounded px-2 py-1.5 text-left hover:bg-accent"
            >
              <span className={cn('flex size-3.5 items-center justify-center rounded-sm border', checked ? 'border-primary bg-primary text-primary-foreground' : 'border-input')}>
                {checked ? <Check className="size-3" /> : null}
              </span>
              <span className="flex-1 truncate">{o.value}</span>
              {o.count !== undefined ? <span className="font-mono text-xs text-muted-foreground">{o.count}</span> : null}
            </button>
          )
        })}
        {selected.length ? (
          <button type="button" onClick={() => onChange([])} className="mt-1 w-full border-t px-2 py-1.5 text-center text-xs hover:bg-accent">
            Clear filters
          </button>
        ) : null}
      </PopoverContent>
    </Popover>
  )
})
