import { flexRender, getCoreRowModel, getExpandedRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table'
import { ChevronDown, ChevronRight, UserMinus, X } from 'lucide-react'
import { Fragment, useMemo, useState } from 'react'
import { MemberTags } from '~/components/member-tags'
import { Button } from '~/components/ui/button'
import { Card, CardHeader, CardTitle } from '~/components/ui/card'
import { TimeAgo } from '~/components/ui/date-time'
import { ConfirmDialog, Dialog } from '~/components/ui/dialog'
import { NativeSelect } from '~/components/ui/native-select'
import { TooltipHost } from '~/components/ui/delegated-tooltip'
import { Tooltip } from '~/components/ui/tooltip'
import type { Member, MemberAccessRight } from '~/domain/members/members.server'
import { useOrganization } from '~/routes/_app.organization.$organizationId'
import { formatCount, formatDateTime } from '~/utils/format-time'
import { useApiMutation } from '~/utils/use-api-mutation'

/**
 * Last Seen's full date, in the browser's zone when shown (the server's zone would differ in the
 * HTML), for the table's one TooltipHost instead of a Radix tooltip per member; other tips as given.
 */
const tipText = (element: HTMLElement) => (element.dataset.seen ? formatDateTime(Number(element.dataset.seen)) : element.dataset.tip ?? '')

/** The organization's members with their roles; a row expands to the member's access rights. */
export function MembersTable({ members }: { members: Member[] }) {
  const { organization } = useOrganization()
  const { run, isPending } = useApiMutation()
  const [removing, setRemoving] = useState<Member | null>(null)

  const columns = useMemo<ColumnDef<Member>[]>(
    () => [
      {
        id: 'expand',
        header: () => <span className="sr-only">Expand</span>,
        cell: ({ row }) => (
          <button
            type="button"
            onClick={row.getToggleExpandedHandler()}
            aria-label={row.getIsExpanded() ? `Hide access rights of ${row.original.name}` : `Show access rights of ${row.original.name}`}
            aria-expanded={row.getIsExpanded()}
            className="rounded p-0.5 text-muted-foreground hover:bg-accent"
          >
            {row.getIsExpanded() ? <ChevronDown className="size-4" /> : <ChevronRight className="size-4" />}
          </button>
        ),
      },
      {
        accessorKey: 'name',
        header: 'Name',
        cell: ({ row }) => (
          <span className="flex items-center gap-1.5 font-medium">
            {row.original.name || row.original.email}
            <MemberTags isOwner={row.original.isOwner} isYou={row.original.isYou} />
          </span>
        ),
      },
      { accessorKey: 'email', header: 'Email', cell: ({ getValue }) => <span className="text-muted-foreground">{getValue<string>()}</span> },
      {
        accessorKey: 'lastSeen',
        header: 'Last Seen',
        cell: ({ getValue }) => {
          const seen = getValue<number | null>()
          return seen ? (
            <span data-tip="" data-seen={seen}>
              <TimeAgo value={seen} />
            </span>
          ) : (
            <span className="text-muted-foreground">Never</span>
          )
        },
      },
      {
        id: 'actions',
        header: () => <span className="sr-only">Actions</span>,
        cell: ({ row }) =>
          row.original.canRemove ? (
            <Button variant="ghost" size="sm" aria-label={`Remove ${row.original.name}`} onClick={() => setRemoving(row.original)}>
              <UserMinus /> Remove
            </Button>
          ) : null,
      },
    ],
    [],
  )

  const table = useReactTable({
    data: members,
    columns,
    getRowId: (m) => m.id,
    getCoreRowModel: getCoreRowModel(),
    getExpandedRowModel: getExpandedRowModel(),
    getRowCanExpand: () => true,
  })

  return (
    <Card>
      <CardHeader>
        <CardTitle>Members ({formatCount(members.length)})</CardTitle>
      </CardHeader>
      <TooltipHost className="relative overflow-x-auto" text={tipText}>
      <table className="w-full text-sm" aria-label="Members">
        <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((h) => (
                <th key={h.id} className={h.column.id === 'expand' ? 'w-8 px-3 py-2' : 'px-3 py-2 font-medium'}>
                  {flexRender(h.column.columnDef.header, h.getContext())}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <Fragment key={row.id}>
              <tr className="border-b last:border-0 hover:bg-muted/30">
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} className={cell.column.id === 'actions' ? 'px-3 py-1 text-right' : 'px-3 py-2'}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ))}
              </tr>
              {row.getIsExpanded() ? (
                <tr className="border-b bg-muted/20">
                  <td />
                  <td colSpan={columns.length - 1} className="px-3 py-2">
                    <AccessRights member={row.original} />
                  </td>
                </tr>
              ) : null}
            </Fragment>
          ))}
        </tbody>
      </table>
      </TooltipHost>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title="Remove Member"
        text={removing ? `Are you sure you want to remove ${removing.name} (${removing.email}) from the organization?` : ''}
        confirmLabel="Remove"
        cancelLabel="Cancel"
        destructive
        busy={isPending('remove')}
        onConfirm={async () => {
          if (!removing) return
          await run('organization/memberRemove', { organizationId: organization.id, userId: removing.id }, { key: 'remove', success: 'Member removed' })
          setRemoving(null)
        }}
      />
    </Card>
  )
}

/** The expanded row: one line per access right with its role selector and remove button. */
function AccessRights({ member }: { member: Member }) {
  const { organization } = useOrganization()
  const { run, isPending } = useApiMutation()
  const [notAllowed, setNotAllowed] = useState<string | null>(null)

  const assign = (right: MemberAccessRight, roleId: string) =>
    run(
      'organization/userRoleAssign',
      { aclId: right.id, organizationId: organization.id, userId: member.id, roleId },
      {
        key: right.id,
        success: 'Role assigned',
        errorTitle: 'Failed to assign role',
        onError: (error) => {
          if (error.code !== 'API/role-not-allowed') return false
          setNotAllowed(error.message)
          return true
        },
      },
    )

  if (member.accessRights.length === 0) return <p className="text-xs text-muted-foreground">No access rights (owner only).</p>
  return (
    <>
      <table className="w-full text-[13px]" aria-label={`Access rights of ${member.name}`}>
        <thead className="text-left text-xs text-muted-foreground">
          <tr>
            <th className="py-1 pr-3 font-medium">Scope</th>
            <th className="py-1 pr-3 font-medium">Role</th>
            <th className="py-1" />
          </tr>
        </thead>
        <tbody>
          {member.accessRights.map((right) => {
            const choices = right.roleChoices.some((c) => c.id === right.roleId)
              ? right.roleChoices
              : [{ id: right.roleId, name: right.roleName }, ...right.roleChoices]
            return (
              <tr key={right.id}>
                <td className="py-1 pr-3">
                  <span className="font-medium">{right.scopeName}</span>
                  {right.resourceType !== right.scopeName ? <span className="ml-1.5 text-xs text-muted-foreground">{right.resourceType}</span> : null}
                </td>
                <td className="py-1 pr-3">
                  <NativeSelect
                    aria-label={`Role on ${right.scopeName}`}
                    value={right.roleId}
                    disabled={!right.canChangeRole || isPending(right.id)}
                    onChange={(e) => void assign(right, e.target.value)}
                    className="h-7 w-56"
                  >
                    {choices.map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.name}
                      </option>
                    ))}
                  </NativeSelect>
                </td>
                <td className="py-1 text-right">
                  {right.canRemove ? (
                    <Tooltip content="Remove access right">
                      <Button
                        variant="ghost"
                        size="sm"
                        aria-label={`Remove access right on ${right.scopeName}`}
                        disabled={isPending(`unassign-${right.id}`)}
                        onClick={() =>
                          void run('organization/userRoleUnassign', { aclId: right.id, organizationId: organization.id }, { key: `unassign-${right.id}`, success: 'Access right removed' })
                        }
                      >
                        <X />
                      </Button>
                    </Tooltip>
                  ) : null}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
      <Dialog
        open={notAllowed !== null}
        onOpenChange={(open) => !open && setNotAllowed(null)}
        title="Role is not allowed"
        description={notAllowed}
        footer={<Button onClick={() => setNotAllowed(null)}>OK</Button>}
      />
    </>
  )
}
