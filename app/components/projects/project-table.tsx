import { Link } from '@remix-run/react'
import { type ColumnDef, flexRender, getCoreRowModel, getExpandedRowModel, useReactTable, type ExpandedState } from '@tanstack/react-table'
import { ChevronDown, ChevronRight, FolderPlus, MoreHorizontal, Settings, Trash2, Users } from 'lucide-react'
import { useMemo, useState, type ReactNode } from 'react'
import type { ProjectSystemTags } from '~/domain/fleet/project-systems.server'
import type { ProjectNode } from '~/domain/projects/projects.server'
import { SystemTagIconSprite, SystemTags, systemTagTip } from '../fleet/system-tags'
import { IconSprite, SpriteIcon } from '../ui/icon-sprite'
import { Button } from '~/components/ui/button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '~/components/ui/dropdown-menu'
import { TooltipHost } from '~/components/ui/delegated-tooltip'
import { cn } from '~/utils/cn'
import { ProjectDialog, type ProjectDialogTab } from './project-dialog'
import { DeleteProjectDialog, NewProjectDialog } from './project-dialogs'
import { formatCount } from '~/utils/format-time'

/**
 * The System(s) column slot. It shows the count of systems assigned to the project; the fleet
 * issue replaces it with connection-state tags (agent name and last seen on hover).
 */
export function ProjectSystemsCell({ organizationId, project, tags }: { organizationId: string; project: ProjectNode; tags?: ProjectSystemTags }) {
  if (tags?.tags.length) return <SystemTags organizationId={organizationId} projectId={project.id} systems={tags} />
  if (project.systemsCount === 0) return <span className="text-muted-foreground">—</span>
  return (
    <span className="tabular-nums">
      {formatCount(project.systemsCount)} system{project.systemsCount === 1 ? '' : 's'}
    </span>
  )
}

const ACTION_ICONS = 'pf-project-action'
/**
 * The row actions' icons once per table: each row repeated five icons' paths (~2.5 KB a row, a
 * fifth of a 40-project page's HTML on a large organization).
 */
function ActionIcon({ name }: { name: 'folder-plus' | 'users' | 'settings' | 'trash' | 'more' }) {
  return <SpriteIcon prefix={ACTION_ICONS} name={name} className="lucide" />
}

/**
 * Trees up to this many projects open fully expanded; larger ones open with their top-level
 * projects only (sub-projects on expand). A 40-project list of the 20,000-agent bench organization
 * was 343 KB of HTML, ~6.5 KB a row (its system tags and action buttons), on a screen that shows
 * about 15 rows; the sub-projects' data is in the page, so expanding asks the server nothing.
 */
export const EXPAND_ALL_UP_TO = 20

const countProjects = (projects: ProjectNode[]): number => projects.reduce((n, p) => n + 1 + countProjects(p.subRows), 0)

/** A project anywhere in the tree (the dialog follows the list's latest data after a change). */
function findProject(projects: ProjectNode[], id: string): ProjectNode | null {
  for (const p of projects) {
    if (p.id === id) return p
    const inner = findProject(p.subRows, id)
    if (inner) return inner
  }
  return null
}

/**
 * Nested projects as an expandable table: name, System(s), actions (add sub-project, members,
 * settings, delete) and a row menu (View, Activity, Settings). Rows come pre-filtered to what
 * the user may view, with per-row capability flags.
 */
export function ProjectTable({
  organizationId,
  projects,
  systemTags,
  empty,
  newProjectOpen,
  onNewProjectOpenChange,
}: {
  organizationId: string
  projects: ProjectNode[]
  /** System(s) column tags per project id (the projects page); without them the cell shows the count */
  systemTags?: Record<string, ProjectSystemTags>
  empty: ReactNode
  /** the page's 'New Project' button opens the same dialog for a top-level project */
  newProjectOpen: boolean
  onNewProjectOpenChange: (open: boolean) => void
}) {
  const [expanded, setExpanded] = useState<ExpandedState>(() => (countProjects(projects) <= EXPAND_ALL_UP_TO ? true : {}))
  const [subProjectOf, setSubProjectOf] = useState<{ id: string; name: string } | null>(null)
  const [deleting, setDeleting] = useState<{ id: string; name: string } | null>(null)
  /** the open project dialog: project, current tab, and the tab whose row button opened it (focus goes back there) */
  const [dialog, setDialog] = useState<{ id: string; tab: ProjectDialogTab; opener: ProjectDialogTab } | null>(null)

  const columns = useMemo<ColumnDef<ProjectNode>[]>(
    () => [
      {
        id: 'name',
        header: 'Name',
        cell: ({ row }) => {
          const p = row.original
          return (
            <div className="flex items-center gap-1" style={{ paddingLeft: row.depth * 20 }}>
              {row.getCanExpand() ? (
                <button
                  type="button"
                  onClick={row.getToggleExpandedHandler()}
                  aria-label={row.getIsExpanded() ? `Collapse ${p.name}` : `Expand ${p.name}`}
                  className="rounded p-0.5 text-muted-foreground hover:bg-accent"
                >
                  {row.getIsExpanded() ? <ChevronDown className="size-4" /> : <ChevronRight className="size-4" />}
                </button>
              ) : (
                <span className="inline-block w-5" />
              )}
              <div className="min-w-0">
                <Link to={p.linkTo} className="font-medium hover:underline">
                  {p.name}
                </Link>
                {p.description ? <p className="truncate text-xs text-muted-foreground">{p.description}</p> : null}
              </div>
            </div>
          )
        },
      },
      { id: 'systems', header: 'System(s)', cell: ({ row }) => <ProjectSystemsCell organizationId={organizationId} project={row.original} tags={systemTags?.[row.original.id]} /> },
      {
        id: 'actions',
        header: () => <span className="sr-only">Actions</span>,
        cell: ({ row }) => {
          const p = row.original
          return (
            <div className="flex items-center justify-end gap-0.5">
              {p.canCreateSubProject ? (
                <Button data-tip="Add sub-project" variant="ghost" size="icon" className="size-7" aria-label={`Add sub-project to ${p.name}`} onClick={() => setSubProjectOf({ id: p.id, name: p.name })}>
                  <ActionIcon name="folder-plus" />
                </Button>
              ) : null}
              {p.canUpdate ? (
                <>
                  <Button data-tip="Members" variant="ghost" size="icon" className="size-7" aria-label={`Members of ${p.name}`} data-dialog-opener={`${p.id}:members`} onClick={() => setDialog({ id: p.id, tab: 'members', opener: 'members' })}>
                    <ActionIcon name="users" />
                  </Button>
                  <Button data-tip="Settings" variant="ghost" size="icon" className="size-7" aria-label={`Settings of ${p.name}`} data-dialog-opener={`${p.id}:settings`} onClick={() => setDialog({ id: p.id, tab: 'settings', opener: 'settings' })}>
                    <ActionIcon name="settings" />
                  </Button>
                </>
              ) : null}
              {p.canDelete ? (
                <Button data-tip="Delete" variant="ghost" size="icon" className="size-7 text-destructive hover:text-destructive" aria-label={`Delete ${p.name}`} onClick={() => setDeleting({ id: p.id, name: p.name })}>
                  <ActionIcon name="trash" />
                </Button>
              ) : null}
              <DropdownMenu>
                <DropdownMenuTrigger asChild>
                  <Button variant="ghost" size="icon" className="size-7" aria-label={`More for ${p.name}`}>
                    <ActionIcon name="more" />
                  </Button>
                </DropdownMenuTrigger>
                <DropdownMenuContent align="end">
                  <DropdownMenuItem asChild>
                    <Link to={p.linkTo}>View</Link>
                  </DropdownMenuItem>
                  {p.canUpdate ? (
                    <>
                      <DropdownMenuItem asChild>
                        <Link to={`${p.linkTo}/audit`}>Activity</Link>
                      </DropdownMenuItem>
                      <DropdownMenuItem asChild>
                        <Link to={`${p.linkTo}/settings`}>Settings</Link>
                      </DropdownMenuItem>
                    </>
                  ) : null}
                </DropdownMenuContent>
              </DropdownMenu>
            </div>
          )
        },
      },
    ],
    [organizationId, systemTags],
  )

  const table = useReactTable({
    data: projects,
    columns,
    state: { expanded },
    onExpandedChange: setExpanded,
    getSubRows: (row) => row.subRows,
    getRowId: (row) => row.id,
    getCoreRowModel: getCoreRowModel(),
    getExpandedRowModel: getExpandedRowModel(),
  })

  return (
    <>
      {projects.length === 0 ? (
        empty
      ) : (
        <TooltipHost className="relative overflow-x-auto rounded-lg border bg-card" text={systemTagTip}>
          {systemTags ? <SystemTagIconSprite /> : null}
          <IconSprite prefix={ACTION_ICONS} icons={{ 'folder-plus': FolderPlus, users: Users, settings: Settings, trash: Trash2, more: MoreHorizontal }} />
          <table className="w-full text-[13px]">
            <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {group.headers.map((header) => (
                    <th key={header.id} className={cn('px-3 py-2 font-medium', header.id === 'systems' && 'w-48', header.id === 'actions' && 'w-48')}>
                      {flexRender(header.column.columnDef.header, header.getContext())}
                    </th>
                  ))}
                </tr>
              ))}
            </thead>
            <tbody>
              {table.getRowModel().rows.map((row) => (
                <tr key={row.id} data-testid="project-row" data-project={row.original.name} className="border-b last:border-0 hover:bg-muted/30">
                  {row.getVisibleCells().map((cell) => (
                    <td key={cell.id} className="px-3 py-1.5 align-middle">
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TooltipHost>
      )}
      <NewProjectDialog
        organizationId={organizationId}
        parent={subProjectOf}
        open={newProjectOpen || subProjectOf !== null}
        onOpenChange={(open) => {
          if (!open) {
            setSubProjectOf(null)
            onNewProjectOpenChange(false)
          }
        }}
      />
      <ProjectDialog
        organizationId={organizationId}
        project={dialog ? findProject(projects, dialog.id) : null}
        tab={dialog?.tab ?? 'members'}
        onTabChange={(tab) => setDialog((d) => (d ? { ...d, tab } : d))}
        onClose={() => {
          // Back to the button that opened it, once the dialog's own focus handling is done; found again
          // by its data attribute because a change made in the dialog re-renders the row's buttons.
          const opener = dialog ? `[data-dialog-opener="${dialog.id}:${dialog.opener}"]` : null
          setDialog(null)
          setTimeout(() => opener && document.querySelector<HTMLElement>(opener)?.focus(), 50)
        }}
      />
      <DeleteProjectDialog organizationId={organizationId} project={deleting} onOpenChange={(open) => !open && setDeleting(null)} />
    </>
  )
}
