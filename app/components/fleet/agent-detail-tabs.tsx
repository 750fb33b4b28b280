import { Link, useFetcher, useNavigate } from '@remix-run/react'
import { AlertTriangle } from 'lucide-react'
import { useEffect, useState } from 'react'
import { toast } from 'sonner'
import { IssueStateTabs, IssueTable } from '~/components/alarms/issue-list'
import { RootCauseCard } from '~/components/fleet/root-cause-card'
import { DeviceTree } from '~/components/fleet/device-tree'
import { SystemAssignSelect } from '~/components/fleet/system-assign'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '~/components/ui/card'
import { ConfirmDialog } from '~/components/ui/dialog'
import { ISSUE_STATE_LABELS } from '~/domain/alarms/state'
import type { AgentDetailPageData as Data } from '~/utils/agent-detail-page.server'

/** One system of the agent: its project, root causes, issues and device tree. */
export function SystemTab({ system, data, organizationId }: { system: Data['systems'][number]; data: Data; organizationId: string }) {
  const [assigning, setAssigning] = useState(false)
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card className="lg:col-span-2">
        <CardContent className="flex flex-wrap items-center justify-between gap-3">
          {system.projectId ? (
            <p className="text-sm">
              Reports to{' '}
              {system.projectPath.map((p, i) => (
                <span key={p.id}>
                  {i > 0 ? ' / ' : ''}
                  <Link to={`/organization/${organizationId}/projects/${p.id}`} className="font-medium hover:underline">
                    {p.name}
                  </Link>
                </span>
              ))}
            </p>
          ) : (
            <p className="flex items-center gap-2 text-sm text-amber-800">
              <AlertTriangle className="size-4" /> System not assigned to project
            </p>
          )}
          {!system.projectId && !assigning && data.capabilities.canAssign ? (
            <Button size="sm" onClick={() => setAssigning(true)}>
              Assign Now
            </Button>
          ) : null}
          {system.projectId || assigning ? (
            <SystemAssignSelect organizationId={organizationId} agentId={data.agent.id} system={system} projects={data.assignableProjects} canUnassign={data.capabilities.canUnassign} disabled={!data.capabilities.canAssign} />
          ) : null}
        </CardContent>
      </Card>
      <RootCauseCard groups={system.rootCauses} showSystem={false} />
      <Card>
        <CardHeader>
          <CardTitle>System Health</CardTitle>
        </CardHeader>
        <CardContent>
          <IssueStateTabs state={data.issueState} />
          <div className="mt-2">
            <IssueTable
              organizationId={organizationId}
              issues={data.issueList.filter((i) => i.systemId === system.id)}
              canManage={false}
              showAgent={false}
              emptyText={data.issueState === 'all' ? 'No issues reported' : `No ${ISSUE_STATE_LABELS[data.issueState].toLowerCase()} issues`}
            />
          </div>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>System Devices</CardTitle>
        </CardHeader>
        <CardContent className="max-h-[480px] overflow-y-auto">
          <DeviceTree nodes={system.devices} />
        </CardContent>
      </Card>
    </div>
  )
}

/** Removing the agent from the organization (behind a confirmation). */
export function SettingsTab({ data, organizationId }: { data: Data; organizationId: string }) {
  const fetcher = useFetcher<{ ok: boolean; message?: string }>()
  const navigate = useNavigate()
  const [confirming, setConfirming] = useState(false)
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (fetcher.data.ok) {
      toast.success(fetcher.data.message ?? 'Agent removed')
      navigate(`/organization/${organizationId}/agents`)
    } else toast.error(fetcher.data.message ?? 'An unrecognized error has occurred')
  }, [fetcher.state, fetcher.data, navigate, organizationId])
  return (
    <Card className="border-red-200">
      <CardHeader>
        <CardTitle>Remove agent</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center justify-between gap-3">
        <p className="max-w-xl text-sm text-muted-foreground">
          Removes the agent from this organization and unassigns its systems. To move a device to another organization it must be removed and enrolled again.
        </p>
        <Button variant="destructive" disabled={!data.capabilities.canDelete} onClick={() => setConfirming(true)}>
          Remove Agent
        </Button>
      </CardContent>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Remove Agent"
        text={`Are you sure you want to remove ${data.agent.name}?`}
        confirmLabel="Remove"
        cancelLabel="Cancel"
        destructive
        busy={fetcher.state !== 'idle'}
        onConfirm={() => fetcher.submit({ intent: 'remove', organizationId, agentId: data.agent.id }, { method: 'post', action: '/resources/agent-actions' })}
      />
    </Card>
  )
}
