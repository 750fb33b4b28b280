import { Link, NavLink, useNavigate, useSubmit } from '@remix-run/react'
import {
  Activity,
  Building2,
  ChevronsLeft,
  ChevronsRight,
  CircleUser,
  Cpu,
  ExternalLink,
  FolderTree,
  Gauge,
  HelpCircle,
  Info,
  Keyboard,
  LogOut,
  NotebookPen,
  Plus,
  Settings,
  Shield,
  Sparkles,
  Users,
  Wrench,
} from 'lucide-react'
import { memo, useState, type ReactNode } from 'react'
import { type OrganizationCapabilities } from '~/domain/access/catalogue'
import { callApi } from '~/utils/api-client'
import { cn } from '~/utils/cn'
import { useDebouncedCallback } from '~/utils/use-debounced-callback'
import { useAfterHydration } from '../ui/after-hydration'
import { ClosedMenuTrigger, DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '../ui/dropdown-menu'
import { Tooltip } from '../ui/tooltip'
import { SHOW_SHORTCUTS_EVENT } from './shortcut-help'

export type SidebarProps = {
  collapsed: boolean
  /** 'drawer': the phone variant inside the menu sheet, always expanded, without the collapse toggle. */
  variant?: 'rail' | 'drawer'
  user: { name: string; email: string; isSiteAdmin: boolean }
  organizations: { id: string; name: string }[]
  active: { id: string; name: string; capabilities: OrganizationCapabilities } | null
  instanceName: string
  dashboardsEnabled: boolean
}

/**
 * The collapsible sidebar (w-20 collapsed, w-64 expanded); the state is saved 1 s after a change.
 * Memoized: its props are the layout's data, so a page's live reloads and fetchers (which render
 * every route component again) leave its menus alone; its links follow the router themselves.
 */
export const Sidebar = memo(function Sidebar(props: SidebarProps) {
  const drawer = props.variant === 'drawer'
  const [railCollapsed, setCollapsed] = useState(props.collapsed)
  const collapsed = drawer ? false : railCollapsed
  const save = useDebouncedCallback((value: boolean) => {
    callApi('user/updateProfile', { preferenceSidebarCollapsed: value }).catch((e) => console.warn('Saving the sidebar state failed', e))
  }, 1000)
  const toggle = () => {
    setCollapsed((c) => {
      save(!c)
      return !c
    })
  }
  const org = props.active
  const caps = org?.capabilities
  const base = org ? `/organization/${org.id}` : null

  return (
    <aside
      data-collapsed={collapsed}
      className={cn(
        'h-full shrink-0 flex-col bg-sidebar text-sidebar-foreground transition-[width] duration-150',
        // below md the rail gives way to the drawer opened from the header's menu button
        drawer ? 'flex w-72 max-w-[85vw]' : 'hidden md:flex',
        collapsed ? 'w-20' : !drawer && 'w-64',
      )}
    >
      <div className={cn('flex h-14 items-center gap-2 px-4', collapsed && 'justify-center px-0')}>
        <Link to="/" className="flex items-center gap-2 font-semibold text-white">
          <img src="/favicon.svg" alt="" className="size-7" />
          {!collapsed && <span className="text-[15px] tracking-tight">Pixelfleet</span>}
        </Link>
        {!collapsed && props.instanceName ? (
          <span data-testid="instance-badge" className="ml-auto rounded bg-amber-400/20 px-1.5 py-0.5 text-[10px] font-semibold uppercase text-amber-300">
            {props.instanceName}
          </span>
        ) : null}
      </div>

      <OrganizationSwitcher collapsed={collapsed} organizations={props.organizations} active={org} />

      <nav className="mt-2 flex flex-1 flex-col gap-0.5 overflow-y-auto px-3" aria-label="Organization">
        {base && caps ? (
          <>
            {caps.canMetricsView && props.dashboardsEnabled ? <Item to={`${base}/dashboard`} icon={<Gauge />} label="Dashboard" collapsed={collapsed} /> : null}
            {caps.canListProjects ? <Item to={`${base}/projects`} icon={<FolderTree />} label="Projects" collapsed={collapsed} /> : null}
            {caps.canListAgents ? (
              <div className="relative flex items-center">
                <Item to={`${base}/agents`} icon={<Cpu />} label="Agents" collapsed={collapsed} className="flex-1" />
                {caps.canAgentEnroll && !collapsed ? (
                  // A sibling of the Agents link, not inside it: nested anchors break hydration.
                  <Link
                    to={`/enroll?organizationId=${org!.id}`}
                    className="absolute right-1 flex min-h-7 items-center gap-0.5 rounded px-2 text-[11px] text-sidebar-foreground hover:bg-white/10 hover:text-white"
                  >
                    <Plus className="size-3" /> Add Agent
                  </Link>
                ) : null}
              </div>
            ) : null}
            {caps.canAuditView ? <Item to={`${base}/activity`} icon={<Activity />} label="Activity" collapsed={collapsed} /> : null}
            {caps.canListMembers ? <Item to={`${base}/members`} icon={<Users />} label="Members" collapsed={collapsed} /> : null}
            {caps.canListNotes ? <Item to={`${base}/notes`} icon={<NotebookPen />} label="Notes" collapsed={collapsed} /> : null}
            <Item to={`${base}/settings`} icon={<Settings />} label="Settings" collapsed={collapsed} />
          </>
        ) : (
          <Item to="/organization/list" icon={<Building2 />} label="Organizations" collapsed={collapsed} />
        )}
      </nav>

      <div className="flex flex-col gap-0.5 border-t border-white/10 px-3 py-2">
        <Item to="/about" icon={<Info />} label="About" collapsed={collapsed} />
        <ExternalItem href="https://docs.pixelfleet.io" icon={<HelpCircle />} label="Help" collapsed={collapsed} />
        <ExternalItem href="https://pixelfleet.io/whats-new" icon={<Sparkles />} label="What's New" collapsed={collapsed} />
        {props.user.isSiteAdmin ? <Item to="/admin/site" icon={<Shield />} label="Admin" collapsed={collapsed} /> : null}
        {props.user.isSiteAdmin ? <Item to="/dev" icon={<Wrench />} label="Developer" collapsed={collapsed} /> : null}
        <ProfileMenu user={props.user} collapsed={collapsed} />
        {drawer ? null : (
        <button
          type="button"
          onClick={toggle}
          aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
          className={cn('mt-1 flex items-center gap-2 rounded-md px-2 py-1.5 text-xs text-sidebar-muted hover:bg-white/10 hover:text-white', collapsed && 'justify-center')}
        >
          {collapsed ? <ChevronsRight className="size-4" /> : <ChevronsLeft className="size-4" />}
          {!collapsed && 'Collapse'}
        </button>
        )}
      </div>
    </aside>
  )
})

function Item({ to, icon, label, collapsed, className }: { to: string; icon: ReactNode; label: string; collapsed: boolean; className?: string }) {
  const link = (
    <NavLink
      to={to}
      prefetch="intent"
      className={({ isActive }) =>
        cn(
          'flex items-center gap-2.5 rounded-md px-2 py-1.5 text-[13px] font-medium text-sidebar-foreground/85 hover:bg-white/10 hover:text-white [&_svg]:size-4',
          isActive && 'bg-white/15 text-white',
          collapsed && 'justify-center',
          className,
        )
      }
    >
      {icon}
      {!collapsed && <span>{label}</span>}
    </NavLink>
  )
  return collapsed ? (
    <Tooltip content={label} side="right">
      {link}
    </Tooltip>
  ) : (
    link
  )
}

function ExternalItem({ href, icon, label, collapsed }: { href: string; icon: ReactNode; label: string; collapsed: boolean }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noreferrer"
      className={cn('flex items-center gap-2.5 rounded-md px-2 py-1.5 text-[13px] text-sidebar-foreground/75 hover:bg-white/10 hover:text-white [&_svg]:size-4', collapsed && 'justify-center')}
      title={label}
    >
      {icon}
      {!collapsed && (
        <>
          <span>{label}</span>
          <ExternalLink className="ml-auto !size-3 opacity-60" />
        </>
      )}
    </a>
  )
}

function OrganizationSwitcher({ collapsed, organizations, active }: { collapsed: boolean; organizations: { id: string; name: string }[]; active: { id: string; name: string } | null }) {
  const navigate = useNavigate()
  const trigger = {
    className: cn('flex w-full items-center gap-2 rounded-md border border-white/10 bg-white/5 px-2 py-1.5 text-left text-[13px] hover:bg-white/10', collapsed && 'justify-center'),
    // the accessible name keeps the visible organization name (axe label-content-name-mismatch)
    'aria-label': collapsed ? 'Switch organization' : `${active?.name ?? 'Select organization'} (Switch organization)`,
    children: (
      <>
        <Building2 className="size-4 shrink-0 text-sidebar-muted" />
        {!collapsed && <span className="truncate font-medium text-white">{active?.name ?? 'Select organization'}</span>}
      </>
    ),
  }
  // the server renders the closed trigger only; the menu comes with the first render after hydration
  const live = useAfterHydration()
  if (!live) return <div className="px-3"><ClosedMenuTrigger {...trigger} /></div>
  return (
    <div className="px-3">
      <DropdownMenu>
        <DropdownMenuTrigger {...trigger} />
        <DropdownMenuContent align="start" className="w-60">
          <DropdownMenuLabel>Organizations</DropdownMenuLabel>
          {organizations.map((o) => (
            <DropdownMenuItem key={o.id} onSelect={() => navigate(`/organization/${o.id}`)} className={cn(o.id === active?.id && 'font-semibold')}>
              {o.name}
            </DropdownMenuItem>
          ))}
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => navigate('/organization/list')}>All organizations</DropdownMenuItem>
          <DropdownMenuItem onSelect={() => navigate('/organization/create')}>
            <Plus /> Create Organization
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </div>
  )
}

function ProfileMenu({ user, collapsed }: { user: { name: string; email: string }; collapsed: boolean }) {
  const navigate = useNavigate()
  const submit = useSubmit()
  const trigger = {
    className: cn('flex items-center gap-2.5 rounded-md px-2 py-1.5 text-left text-[13px] hover:bg-white/10', collapsed && 'justify-center'),
    children: (
      <>
        {/* named by its content ("My Account" + the visible name and e-mail), not an aria-label that hides them */}
        <span className="sr-only">My Account</span>
        <CircleUser className="size-5 shrink-0" aria-hidden />
        {!collapsed && (
          <span className="min-w-0">
            <span className="block truncate font-medium text-white">{user.name}</span>
            <span className="block truncate text-[11px] text-sidebar-muted">{user.email}</span>
          </span>
        )}
      </>
    ),
  }
  const live = useAfterHydration()
  if (!live) return <ClosedMenuTrigger {...trigger} />
  return (
    <DropdownMenu>
      <DropdownMenuTrigger {...trigger} />
      <DropdownMenuContent side="right" align="end" className="w-52">
        <DropdownMenuLabel>My Account</DropdownMenuLabel>
        <DropdownMenuItem onSelect={() => navigate('/settings/profile')}>Profile</DropdownMenuItem>
        <DropdownMenuItem onSelect={() => navigate('/settings/preferences')}>Preferences</DropdownMenuItem>
        <DropdownMenuItem onSelect={() => navigate('/settings/notifications')}>Notifications</DropdownMenuItem>
        <DropdownMenuItem onSelect={() => navigate('/billing')}>Billing</DropdownMenuItem>
        <DropdownMenuItem onSelect={() => window.dispatchEvent(new Event(SHOW_SHORTCUTS_EVENT))}>
          <Keyboard /> Keyboard shortcuts <kbd className="ml-auto font-mono text-xs text-muted-foreground">?</kbd>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        {/* Submitted from onSelect: a <Form> inside the menu is unmounted as the menu closes, which cancels its submit. */}
        <DropdownMenuItem onSelect={() => submit(null, { method: 'post', action: '/logout' })}>
          <LogOut /> Sign Out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
