import * as DialogPrimitive from '@radix-ui/react-dialog'
import { useLocation } from '@remix-run/react'
import { Menu } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Sidebar, type SidebarProps } from './sidebar'

/**
 * Below 768 px the sidebar is a drawer: a menu button in the header opens it as a sheet from the
 * left, and it closes on navigation, on Escape or a tap outside (Radix returns focus to the button).
 */
export function MobileNav(props: Omit<SidebarProps, 'variant'>) {
  const [open, setOpen] = useState(false)
  const location = useLocation()
  useEffect(() => setOpen(false), [location.pathname, location.search])
  return (
    <DialogPrimitive.Root open={open} onOpenChange={setOpen}>
      <DialogPrimitive.Trigger className="-ml-1 rounded-md p-1.5 text-muted-foreground hover:bg-accent md:hidden" aria-label="Open menu">
        <Menu className="size-5" />
      </DialogPrimitive.Trigger>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/40 md:hidden" />
        <DialogPrimitive.Content className="fixed inset-y-0 left-0 z-50 flex outline-none md:hidden" aria-describedby={undefined}>
          <DialogPrimitive.Title className="sr-only">Menu</DialogPrimitive.Title>
          <Sidebar {...props} variant="drawer" />
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  )
}
