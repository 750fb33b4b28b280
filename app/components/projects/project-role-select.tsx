import { useRevalidator } from '@remix-run/react'
import { ChevronDown } from 'lucide-react'
import { useEffect, useState } from 'react'
import { toast } from 'sonner'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { DropdownMenu, DropdownMenuCheckboxItem, DropdownMenuContent, DropdownMenuLabel, DropdownMenuTrigger } from '~/components/ui/dropdown-menu'
import { callApi } from '~/utils/api-client'

type RoleOption = { id: string; name: string; assignable: boolean }

/**
 * A member's roles on one project as a multi-select. Each tick or untick is its own
 * assign/unassign call (spec 02 section 7); roles the actor may not hand out are disabled.
 */
export function ProjectRoleSelect({
  organizationId,
  projectId,
  member,
  selected,
  roles,
  canAssign,
  onChanged,
}: {
  organizationId: string
  projectId: string
  member: { id: string; name: string }
  selected: string[]
  roles: RoleOption[]
  canAssign: boolean
  /** after a change (the project dialog reloads its member list) */
  onChanged?: () => void
}) {
  const revalidator = useRevalidator()
  const [current, setCurrent] = useState(selected)
  const [busy, setBusy] = useState<string | null>(null)
  useEffect(() => setCurrent(selected), [selected])
  const byId = new Map(roles.map((r) => [r.id, r]))

  const toggle = async (role: RoleOption, checked: boolean) => {
    setBusy(role.id)
    setCurrent((c) => (checked ? [...c, role.id] : c.filter((id) => id !== role.id)))
    try {
      await callApi(checked ? 'project/memberRoleAssign' : 'project/memberRoleUnassign', { organizationId, projectId, memberId: member.id, roleId: role.id })
      toast.success(checked ? `${member.name} is now ${role.name} on this project` : `${role.name} removed from ${member.name}`)
    } catch (e) {
      setCurrent((c) => (checked ? c.filter((id) => id !== role.id) : [...c, role.id]))
      toast.error('Failed to assign role', { description: (e as Error).message })
    } finally {
      setBusy(null)
      revalidator.revalidate()
      onChanged?.()
    }
  }

  const badges = current.length ? (
    current.map((id) => (
      <Badge key={id} variant="default">
        {byId.get(id)?.name ?? id}
      </Badge>
    ))
  ) : (
    <span className="text-muted-foreground">No project roles</span>
  )
  if (!canAssign) return <div className="flex flex-wrap gap-1">{badges}</div>
  // the accessible name starts with what the button shows (WCAG 2.5.3 label in name)
  const shown = current.length ? current.map((id) => byId.get(id)?.name ?? id).join(' ') : 'No project roles'

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm" className="h-auto min-h-7 w-full max-w-72 justify-between gap-2 py-1 font-normal" aria-label={`${shown}: project roles of ${member.name}`}>
          <span className="flex flex-wrap gap-1">{badges}</span>
          <ChevronDown className="text-muted-foreground" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-64">
        <DropdownMenuLabel>Roles on this project</DropdownMenuLabel>
        {roles.map((role) => (
          <DropdownMenuCheckboxItem
            key={role.id}
            checked={current.includes(role.id)}
            disabled={!role.assignable || busy !== null}
            onSelect={(e) => e.preventDefault()}
            onCheckedChange={(checked) => void toggle(role, checked === true)}
          >
            {role.name}
          </DropdownMenuCheckboxItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
