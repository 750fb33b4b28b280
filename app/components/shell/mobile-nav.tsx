import * as DialogPrimitive from '@radix-ui/react-dialog'
import { useLocation } from '@remix-run/react'
import { Menu } from 'lucide-react'
import { memo, useEffect, useState } from 'react'
import { useAfterHydration } from '../ui/after-hydration'
import { ClosedMenuTrigger } from '../ui/dropdown-menu'
import { plainIcon } from './plain-icon'
import { Sidebar, type SidebarProps } from './sidebar'

/**
 * Below 768 px the sidebar is a drawer: a menu button in the header opens it as a sheet from the
 * left, and it closes on navigation, on Escape or a tap outside (Radix returns focus to the button).
 */
export const MobileNav = memo(function MobileNav(props: Omit<SidebarProps, 'variant'>) {
  const [open, setOpen] = useState(false)
  const location = useLocation()
  useEffect(() => setOpen(false), [location.pathname, location.search])
  const trigger = { className: '-ml-1 rounded-md p-1.5 text-muted-foreground hover:bg-accent md:hidden', 'aria-label': 'Open menu', children: plainIcon(Menu, 'size-5') }
  // the server renders the closed trigger only (as Radix renders it); the dialog comes with the first render after hydration
  const live = useAfterHydration()
  if (!live) return <ClosedMenuTrigger popup="dialog" {...trigger} />
  return (
    <DialogPrimitive.Root open={open} onOpenChange={setOpen}>
      <DialogPrimitive.Trigger {...trigger} />
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/40 md:hidden" />
        <DialogPrimitive.Content className="fixed inset-y-0 left-0 z-50 flex outline-none md:hidden" aria-describedby={undefined}>
          <DialogPrimitive.Title className="sr-only">Menu</DialogPrimitive.Title>
          <Sidebar {...props} variant="drawer" />
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  )
})
