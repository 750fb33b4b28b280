import * as Menu from '@radix-ui/react-dropdown-menu'
import { type ComponentProps } from 'react'
import { cn } from '~/utils/cn'

export const DropdownMenu = Menu.Root

/**
 * What a closed Radix trigger renders (same element and state attributes, no menu or popover root):
 * menus (`popup` 'menu', the default) and popovers or dialogs ('dialog') render this on the server
 * and until hydration (useAfterHydration); each Radix root is a dozen providers to render.
 */
export function ClosedMenuTrigger({ popup = 'menu', ...props }: ComponentProps<'button'> & { popup?: 'menu' | 'dialog' }) {
  return <button type="button" aria-haspopup={popup} aria-expanded={false} data-state="closed" {...props} />
}
export const DropdownMenuTrigger = Menu.Trigger
export const DropdownMenuGroup = Menu.Group

export function DropdownMenuContent({ className, sideOffset = 4, ...props }: ComponentProps<typeof Menu.Content>) {
  return (
    <Menu.Portal>
      <Menu.Content
        sideOffset={sideOffset}
        className={cn('z-50 min-w-40 overflow-hidden rounded-md border bg-card p-1 text-sm shadow-lg', className)}
        {...props}
      />
    </Menu.Portal>
  )
}

export function DropdownMenuItem({ className, ...props }: ComponentProps<typeof Menu.Item>) {
  return (
    <Menu.Item
      className={cn(
        'flex cursor-pointer select-none items-center gap-2 rounded px-2 py-1.5 outline-none data-[disabled]:pointer-events-none data-[highlighted]:bg-accent data-[disabled]:opacity-50 [&_svg]:size-4',
        className,
      )}
      {...props}
    />
  )
}

export function DropdownMenuCheckboxItem({ className, children, ...props }: ComponentProps<typeof Menu.CheckboxItem>) {
  return (
    <Menu.CheckboxItem
      className={cn('relative flex cursor-pointer select-none items-center rounded py-1.5 pl-7 pr-2 outline-none data-[highlighted]:bg-accent', className)}
      {...props}
    >
      <span className="absolute left-2 flex size-3.5 items-center justify-center">
        <Menu.ItemIndicator>✓</Menu.ItemIndicator>
      </span>
      {children}
    </Menu.CheckboxItem>
  )
}

export const DropdownMenuLabel = ({ className, ...props }: ComponentProps<typeof Menu.Label>) => (
  <Menu.Label className={cn('px-2 py-1.5 text-xs font-semibold text-muted-foreground', className)} {...props} />
)
export const DropdownMenuSeparator = ({ className, ...props }: ComponentProps<typeof Menu.Separator>) => (
  <Menu.Separator className={cn('-mx-1 my-1 h-px bg-border', className)} {...props} />
)

export const DropdownMenuRadioGroup = Menu.RadioGroup

export function DropdownMenuRadioItem({ className, children, ...props }: ComponentProps<typeof Menu.RadioItem>) {
  return (
    <Menu.RadioItem
      className={cn('relative flex cursor-pointer select-none items-center gap-2 rounded py-1.5 pl-7 pr-2 outline-none data-[highlighted]:bg-accent [&_svg]:size-4', className)}
      {...props}
    >
      <span className="absolute left-2 flex size-3.5 items-center justify-center">
        <Menu.ItemIndicator>•</Menu.ItemIndicator>
      </span>
      {children}
    </Menu.RadioItem>
  )
}
