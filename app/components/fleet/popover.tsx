import * as PopoverPrimitive from '@radix-ui/react-popover'
import * as SwitchPrimitive from '@radix-ui/react-switch'
import { type ComponentProps } from 'react'
import { cn } from '~/utils/cn'
import { buttonVariants } from '../ui/button'

export const Popover = PopoverPrimitive.Root
export const PopoverTrigger = PopoverPrimitive.Trigger
export const PopoverAnchor = PopoverPrimitive.Anchor

/** The agents toolbar's menu and popover triggers, live and closed: <Button variant="outline" size="sm" className="h-8">. */
export const TOOLBAR_TRIGGER_CLASS = cn(buttonVariants({ variant: 'outline', size: 'sm' }), 'h-8')

export function PopoverContent({ className, align = 'start', sideOffset = 4, ...props }: ComponentProps<typeof PopoverPrimitive.Content>) {
  return (
    <PopoverPrimitive.Portal>
      <PopoverPrimitive.Content
        align={align}
        sideOffset={sideOffset}
        className={cn('z-50 rounded-md border bg-card p-1 text-sm shadow-lg outline-none', className)}
        {...props}
      />
    </PopoverPrimitive.Portal>
  )
}

const SWITCH_CLASS = 'inline-flex h-4 w-7 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent bg-input transition-colors data-[state=checked]:bg-primary'
const THUMB_CLASS = 'block size-3 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-3'

export function Switch({ className, ...props }: ComponentProps<typeof SwitchPrimitive.Root>) {
  return (
    <SwitchPrimitive.Root className={cn(SWITCH_CLASS, className)} {...props}>
      <SwitchPrimitive.Thumb className={THUMB_CLASS} />
    </SwitchPrimitive.Root>
  )
}

/** The Switch as it looks before hydration (what Radix renders, without its root's providers); useAfterHydration swaps in the live one. */
export function ClosedSwitch({ checked, label }: { checked: boolean; label: string }) {
  const state = checked ? 'checked' : 'unchecked'
  return (
    <button type="button" role="switch" aria-checked={checked} aria-label={label} data-state={state} value="on" className={SWITCH_CLASS}>
      <span data-state={state} className={THUMB_CLASS} />
    </button>
  )
}
