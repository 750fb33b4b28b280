import { useRevalidator } from '@remix-run/react'
import { useCallback, useEffect, useState } from 'react'
import { toast } from 'sonner'
import { InlineEditField } from '~/components/inline-edit-field'
import { Dialog } from '~/components/ui/dialog'
import type { listProjectMembers, ProjectNode } from '~/domain/projects/projects.server'
import { useRootData } from '~/root'
import { callApi } from '~/utils/api-client'
import { cn } from '~/utils/cn'
import { ProjectMembersTable } from './project-members-table'

export type ProjectDialogTab = 'members' | 'settings'
type Membership = Awaited<ReturnType<typeof listProjectMembers>>

const SUCCESS = { name: 'Project name updated', description: 'Project updated' } as const

/**
 * The projects list's project dialog (spec 02 section 2): Members and Settings tabs, opened from a
 * row's Members and Settings actions without leaving the list. Changes revalidate the page, so the
 * list shows them; closing returns focus to the button that opened it (Radix restores focus).
 */
export function ProjectDialog({
  organizationId,
  project,
  tab,
  onTabChange,
  onClose,
}: {
  organizationId: string
  project: ProjectNode | null
  tab: ProjectDialogTab
  onTabChange: (tab: ProjectDialogTab) => void
  onClose: () => void
}) {
  const revalidator = useRevalidator()
  const currentUserId = useRootData()?.user?.id ?? ''
  const [membership, setMembership] = useState<Membership | null>(null)
  const [failed, setFailed] = useState<string | null>(null)
  const projectId = project?.id ?? null

  const loadMembers = useCallback(async () => {
    if (!projectId) return
    try {
      setMembership(await callApi<Membership>('project/members', { organizationId, projectId }))
      setFailed(null)
    } catch (e) {
      setFailed((e as Error).message)
    }
  }, [organizationId, projectId])
  useEffect(() => {
    setMembership(null)
    void loadMembers()
  }, [loadMembers])

  const save = (field: keyof typeof SUCCESS) => async (value: string) => {
    await callApi('project/update', { organizationId, projectId, doc: { [field]: value } })
    toast.success(SUCCESS[field])
    revalidator.revalidate()
  }

  const tabs: { id: ProjectDialogTab; label: string }[] = [
    { id: 'members', label: 'Members' },
    { id: 'settings', label: 'Settings' },
  ]
  return (
    <Dialog open={project !== null} onOpenChange={(open) => !open && onClose()} title={project?.name ?? ''} description={project?.parentName ? `Sub-project of ${project.parentName}` : 'Project'} className="max-w-3xl">
      {project ? (
        <div className="flex min-h-0 flex-col gap-3">
          <div role="tablist" aria-label="Project dialog" className="flex gap-1 border-b">
            {tabs.map((t) => (
              <button
                key={t.id}
                type="button"
                role="tab"
                aria-selected={tab === t.id}
                onClick={() => onTabChange(t.id)}
                className={cn(
                  '-mb-px border-b-2 px-3 py-2 text-sm font-medium transition-colors',
                  tab === t.id ? 'border-primary text-foreground' : 'border-transparent text-muted-foreground hover:text-foreground',
                )}
              >
                {t.label}
              </button>
            ))}
          </div>
          <div role="tabpanel" aria-label={tab === 'members' ? 'Members' : 'Settings'} className="max-h-[60vh] overflow-y-auto">
            {tab === 'members' ? (
              failed ? (
                <p className="py-6 text-center text-sm text-destructive">{failed}</p>
              ) : !membership ? (
                <p className="py-6 text-center text-sm text-muted-foreground">Loading members…</p>
              ) : (
                <div className="relative overflow-x-auto rounded-md border">
                  <ProjectMembersTable
                    organizationId={organizationId}
                    projectId={project.id}
                    members={membership.members}
                    roles={membership.roles}
                    canAssign={membership.canAssign}
                    currentUserId={currentUserId}
                    onChanged={() => void loadMembers()}
                  />
                </div>
              )
            ) : (
              <div className="flex flex-col gap-5 py-1">
                <InlineEditField label="Name" field="name" value={project.name} canEdit={project.canUpdate} onSave={save('name')} />
                <InlineEditField
                  label="Description"
                  field="description"
                  value={project.description}
                  canEdit={project.canUpdate}
                  onSave={save('description')}
                  multiline
                  rows={3}
                  emptyText="No description"
                />
              </div>
            )}
          </div>
        </div>
      ) : null}
    </Dialog>
  )
}
