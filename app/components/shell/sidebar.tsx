import { Link, useLocation, useNavigate, useSubmit } from '@remix-run/react'
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
  type LucideIcon,
} from 'lucide-react'
import { memo, useMemo, useState, type ReactElement } from 'react'
import { type OrganizationCapabilities } from '~/domain/access/catalogue'
import { callApi } from '~/utils/api-client'
import { cn } from '~/utils/cn'
import { useDebouncedCallback } from '~/utils/use-debounced-callback'
import { useAfterHydration } from '../ui/after-hydration'
import { ClosedMenuTrigger, DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '../ui/dropdown-menu'
import { Tooltip } from '../ui/tooltip'
import { plainIcon } from './plain-icon'
import { SHOW_SHORTCUTS_EVENT } from './shortcut-help'

/** What the shell shows of the member's rights in the active organization (the `_app` loader sends only these). */
export type ShellCapabilities = Pick<OrganizationCapabilities, 'canMetricsView' | 'canListProjects' | 'canListAgents' | 'canAgentEnroll' | 'canAuditView' | 'canListMembers' | 'canListNotes'>

export type SidebarProps = {
  collapsed: boolean
  /** 'drawer': the phone variant inside the menu sheet, always expanded, without the collapse toggle. */
  variant?: 'rail' | 'drawer'
  user: { name: string; email: string; isSiteAdmin: boolean }
  organizations: { id: string; name: string }[]
  active: { id: string; name: string; capabilities: ShellCapabilities } | null
  instanceName: string
  dashboardsEnabled: boolean
}

type NavEntry = { to: string; icon: ReactElement; label: string }
type OrganizationNav = { lead: NavEntry[]; agents: NavEntry | null; rest: NavEntry[] }

/** The organization's links the member may use (the organization list outside one); computed when the organization or its rights change. */
function organizationNav(org: SidebarProps['active'], dashboardsEnabled: boolean): OrganizationNav {
  if (!org) return { lead: [{ to: '/organization/list', icon: plainIcon(Building2), label: 'Organizations' }], agents: null, rest: [] }
  const caps = org.capabilities
  const entry = (path: string, icon: LucideIcon, label: string): NavEntry => ({ to: `/organization/${org.id}/${path}`, icon: plainIcon(icon), label })
  const lead: NavEntry[] = []
  if (caps.canMetricsView && dashboardsEnabled) lead.push(entry('dashboard', Gauge, 'Dashboard'))
  if (caps.canListProjects) lead.push(entry('projects', FolderTree, 'Projects'))
  const rest: NavEntry[] = []
  if (caps.canAuditView) rest.push(entry('activity', Activity, 'Activity'))
  if (caps.canListMembers) rest.push(entry('members', Users, 'Members'))
  if (caps.canListNotes) rest.push(entry('notes', NotebookPen, 'Notes'))
  rest.push(entry('settings', Settings, 'Settings'))
  // Agents has a row of its own: the Add Agent link sits beside it
  return { lead, agents: caps.canListAgents ? entry('agents', Cpu, 'Agents') : null, rest }
}

/**
 * The collapsible sidebar (w-20 collapsed, w-64 expanded); the state is saved 1 s after a change.
 * Memoized: its props are the layout's data, so a page's live reloads and fetchers (which render
 * every route component again) leave its menus alone; its links follow the router themselves.
 * Every link is one Remix <Link> with its class text fixed per state and a plain <svg> icon: it is
 * drawn on every page the server renders (docs/benchmarks.md, "Web request cost").
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
  const nav = useMemo(() => organizationNav(org, props.dashboardsEnabled), [org, props.dashboardsEnabled])
  // NavLink's rule (not case-sensitive, `end` off): a link is current on its path and below it
  const pathname = useLocation().pathname.toLowerCase()
  const item = (e: NavEntry, className?: string) => {
    const to = e.to.toLowerCase()
    return <NavItem key={e.to} entry={e} collapsed={collapsed} active={pathname === to || pathname.startsWith(`${to}/`)} className={className} />
  }

  return (
    <aside
      data-collapsed={collapsed}
      className={
        'h-full shrink-0 flex-col bg-sidebar text-sidebar-foreground transition-[width] duration-150 ' +
        // below md the rail gives way to the drawer opened from the header's menu button
        (drawer ? 'flex w-72 max-w-[85vw]' : collapsed ? 'hidden md:flex w-20' : 'hidden md:flex w-64')
      }
    >
      <div className={collapsed ? 'flex h-14 items-center gap-2 justify-center px-0' : 'flex h-14 items-center gap-2 px-4'}>
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
        {nav.lead.map((e) => item(e))}
        {nav.agents ? (
          <div className="relative flex items-center">
            {item(nav.agents, 'flex-1')}
            {org?.capabilities.canAgentEnroll && !collapsed ? (
              // A sibling of the Agents link, not inside it: nested anchors break hydration.
              <Link
                to={`/enroll?organizationId=${org!.id}`}
                className="absolute right-1 flex min-h-7 items-center gap-0.5 rounded px-2 text-[11px] text-sidebar-foreground hover:bg-white/10 hover:text-white"
              >
                {plainIcon(Plus, 'size-3')} Add Agent
              </Link>
            ) : null}
          </div>
        ) : null}
        {nav.rest.map((e) => item(e))}
      </nav>

      <div className="flex flex-col gap-0.5 border-t border-white/10 px-3 py-2">
        {item(ABOUT)}
        <ExternalItem href="https://docs.pixelfleet.io" icon={plainIcon(HelpCircle)} label="Help" collapsed={collapsed} />
        <ExternalItem href="https://pixelfleet.io/whats-new" icon={plainIcon(Sparkles)} label="What's New" collapsed={collapsed} />
        {props.user.isSiteAdmin ? item(ADMIN) : null}
        {props.user.isSiteAdmin ? item(DEVELOPER) : null}
        <ProfileMenu user={props.user} collapsed={collapsed} />
        {drawer ? null : (
          <button
            type="button"
            onClick={toggle}
            aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
            className={collapsed ? 'mt-1 flex items-center gap-2 rounded-md px-2 py-1.5 text-xs text-sidebar-muted hover:bg-white/10 hover:text-white justify-center' : 'mt-1 flex items-center gap-2 rounded-md px-2 py-1.5 text-xs text-sidebar-muted hover:bg-white/10 hover:text-white'}
          >
            {collapsed ? plainIcon(ChevronsRight, 'size-4') : plainIcon(ChevronsLeft, 'size-4')}
            {!collapsed && 'Collapse'}
          </button>
        )}
      </div>
    </aside>
  )
})

const ABOUT: NavEntry = { to: '/about', icon: plainIcon(Info), label: 'About' }
const ADMIN: NavEntry = { to: '/admin/site', icon: plainIcon(Shield), label: 'Admin' }
const DEVELOPER: NavEntry = { to: '/dev', icon: plainIcon(Wrench), label: 'Developer' }

const ITEM = 'flex items-center gap-2.5 rounded-md px-2 py-1.5 text-[13px] font-medium hover:bg-white/10 hover:text-white [&_svg]:size-4'
const ITEM_IDLE = 'flex items-center gap-2.5 rounded-md px-2 py-1.5 text-[13px] font-medium text-sidebar-foreground/85 hover:bg-white/10 hover:text-white [&_svg]:size-4'
const ITEM_ACTIVE = `${ITEM} bg-white/15 text-white`

/** A sidebar link: marked current (aria-current="page") on its path and below, as NavLink did. */
function NavItem({ entry, collapsed, active, className }: { entry: NavEntry; collapsed: boolean; active: boolean; className?: string }) {
  const classes = (active ? ITEM_ACTIVE : ITEM_IDLE) + (collapsed ? ' justify-center' : '') + (className ? ` ${className}` : '')
  const link = (
    <Link to={entry.to} prefetch="intent" className={classes} aria-current={active ? 'page' : undefined}>
      {entry.icon}
      {!collapsed && <span>{entry.label}</span>}
    </Link>
  )
  return collapsed ? (
    <Tooltip content={entry.label} side="right">
      {link}
    </Tooltip>
  ) : (
    link
  )
}

const EXTERNAL = 'flex items-center gap-2.5 rounded-md px-2 py-1.5 text-[13px] text-sidebar-foreground/75 hover:bg-white/10 hover:text-white [&_svg]:size-4'
const EXTERNAL_MARK = plainIcon(ExternalLink, 'ml-auto !size-3 opacity-60')

function ExternalItem({ href, icon, label, collapsed }: { href: string; icon: ReactElement; label: string; collapsed: boolean }) {
  return (
    <a href={href} target="_blank" rel="noreferrer" className={collapsed ? `${EXTERNAL} justify-center` : EXTERNAL} title={label}>
      {icon}
      {!collapsed && (
        <>
          <span>{label}</span>
          {EXTERNAL_MARK}
        </>
      )}
    </a>
  )
}

function OrganizationSwitcher({ collapsed, organizations, active }: { collapsed: boolean; organizations: { id: string; name: string }[]; active: { id: string; name: string } | null }) {
  const navigate = useNavigate()
  const trigger = {
    className: `flex w-full items-center gap-2 rounded-md border border-white/10 bg-white/5 px-2 py-1.5 text-left text-[13px] hover:bg-white/10${collapsed ? ' justify-center' : ''}`,
    // the accessible name keeps the visible organization name (axe label-content-name-mismatch)
    'aria-label': collapsed ? 'Switch organization' : `${active?.name ?? 'Select organization'} (Switch organization)`,
    children: (
      <>
        {plainIcon(Building2, 'size-4 shrink-0 text-sidebar-muted')}
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
    className: `flex items-center gap-2.5 rounded-md px-2 py-1.5 text-left text-[13px] hover:bg-white/10${collapsed ? ' justify-center' : ''}`,
    children: (
      <>
        {/* named by its content ("My Account" + the visible name and e-mail), not an aria-label that hides them */}
        <span className="sr-only">My Account</span>
        {plainIcon(CircleUser, 'size-5 shrink-0')}
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
