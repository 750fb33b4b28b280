import { Check, ChevronsUpDown, Plus } from 'lucide-react'
import { useId, useMemo, useRef, useState } from 'react'
import { cn } from '~/utils/cn'

export type ComboboxOption = { value: string; label: string; hint?: string }

/** What the user picked: an existing option, or (with `allowCreate`) a typed new name. */
export type ComboboxValue = { kind: 'option'; value: string } | { kind: 'new'; name: string } | null

/**
 * A text field with a filtered option list (ARIA combobox pattern). With `allowCreate`, typing a
 * name no option has offers "Create '{name}'"; the list caps at 300 px (spec 02 section 9).
 */
export function Combobox({
  options,
  value,
  onChange,
  placeholder,
  allowCreate,
  createLabel = (name) => `Create '${name}'`,
  id,
  'aria-invalid': ariaInvalid,
  'aria-describedby': ariaDescribedBy,
  className,
}: {
  options: ComboboxOption[]
  value: ComboboxValue
  onChange: (value: ComboboxValue) => void
  placeholder?: string
  allowCreate?: boolean
  createLabel?: (name: string) => string
  id?: string
  'aria-invalid'?: boolean
  'aria-describedby'?: string
  className?: string
}) {
  const listId = useId()
  const inputRef = useRef<HTMLInputElement>(null)
  const selectedLabel = value?.kind === 'option' ? (options.find((o) => o.value === value.value)?.label ?? '') : value?.kind === 'new' ? value.name : ''
  const [text, setText] = useState<string | null>(null)
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(0)
  const query = (text ?? '').trim()

  const items = useMemo(() => {
    const matches = options.filter((o) => o.label.toLowerCase().includes(query.toLowerCase()))
    const exact = options.some((o) => o.label.toLowerCase() === query.toLowerCase())
    const create = allowCreate && query && !exact ? [{ kind: 'new' as const, name: query }] : []
    return [...matches.map((o) => ({ kind: 'option' as const, option: o })), ...create]
  }, [options, query, allowCreate])

  function choose(index: number) {
    const item = items[index]
    if (!item) return
    onChange(item.kind === 'option' ? { kind: 'option', value: item.option.value } : { kind: 'new', name: item.name })
    setText(null)
    setOpen(false)
  }

  return (
    <div className={cn('relative', className)}>
      <input
        ref={inputRef}
        id={id}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-invalid={ariaInvalid}
        aria-describedby={ariaDescribedBy}
        aria-activedescendant={open && items[active] ? `${listId}-${active}` : undefined}
        autoComplete="off"
        placeholder={placeholder}
        value={text ?? selectedLabel}
        onChange={(e) => {
          setText(e.target.value)
          setActive(0)
          setOpen(true)
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => {
          setOpen(false)
          setText(null)
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault()
            setOpen(true)
            setActive((i) => Math.min(i + 1, items.length - 1))
          } else if (e.key === 'ArrowUp') {
            e.preventDefault()
            setActive((i) => Math.max(i - 1, 0))
          } else if (e.key === 'Enter' && open) {
            e.preventDefault()
            choose(active)
          } else if (e.key === 'Escape') {
            setOpen(false)
            setText(null)
          }
        }}
        className="flex h-8 w-full rounded-md border border-input bg-card pl-2.5 pr-8 text-sm shadow-sm placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring aria-[invalid=true]:border-destructive"
      />
      <ChevronsUpDown className="pointer-events-none absolute right-2 top-2 size-4 text-muted-foreground" />
      {open && items.length > 0 ? (
        <ul id={listId} role="listbox" className="absolute z-50 mt-1 max-h-[300px] w-full overflow-auto rounded-md border bg-card py-1 text-sm shadow-lg">
          {items.map((item, index) => {
            const selected = item.kind === 'option' && value?.kind === 'option' && value.value === item.option.value
            return (
              <li
                key={item.kind === 'option' ? item.option.value : `new:${item.name}`}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={selected}
                // mousedown, not click: it lands before the input's blur closes the list
                onMouseDown={(e) => {
                  e.preventDefault()
                  choose(index)
                }}
                onMouseEnter={() => setActive(index)}
                className={cn('flex cursor-pointer items-center gap-2 px-2.5 py-1.5', index === active && 'bg-accent')}
              >
                {item.kind === 'option' ? (
                  <>
                    <Check className={cn('size-3.5 shrink-0', selected ? 'opacity-100' : 'opacity-0')} />
                    <span className="truncate">{item.option.label}</span>
                    {item.option.hint ? <span className="ml-auto shrink-0 text-xs text-muted-foreground">{item.option.hint}</span> : null}
                  </>
                ) : (
                  <>
                    <Plus className="size-3.5 shrink-0 text-primary" />
                    <span className="truncate">{createLabel(item.name)}</span>
                  </>
                )}
              </li>
            )
          })}
        </ul>
      ) : null}
    </div>
  )
}
