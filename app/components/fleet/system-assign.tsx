import { useFetcher } from '@remix-run/react'
import { useEffect } from 'react'
import { toast } from 'sonner'
import { NativeSelect } from '../ui/native-select'

type AssignResult = { ok: true; message?: string } | { ok: false; message: string }

/**
 * The project assignment picker of one system, '(None)' included. Changing it calls the same
 * domain function as the API (assignSystemToProject) through /resources/agent-actions.
 */
export function SystemAssignSelect({
  organizationId,
  agentId,
  system,
  projects,
  canUnassign,
  disabled,
}: {
  organizationId: string
  agentId: string
  system: { id: string; name: string; projectId: string | null; projectName?: string | null }
  projects: { id: string; name: string }[]
  canUnassign: boolean
  disabled?: boolean
}) {
  const fetcher = useFetcher<AssignResult>()
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (fetcher.data.ok) toast.success(fetcher.data.message ?? 'Saved')
    else toast.error(fetcher.data.message)
  }, [fetcher.state, fetcher.data])
  const pending = fetcher.formData?.get('projectId')
  const value = pending !== undefined && pending !== null ? String(pending) : (system.projectId ?? '')
  // the current project stays listed even when the viewer may not assign to it
  const options = system.projectId && !projects.some((p) => p.id === system.projectId) ? [{ id: system.projectId, name: system.projectName ?? system.projectId }, ...projects] : projects
  return (
    <NativeSelect
      aria-label={`Project of system ${system.name}`}
      className="h-7 min-w-48 text-xs"
      value={value}
      disabled={disabled || fetcher.state !== 'idle'}
      onChange={(e) =>
        fetcher.submit({ intent: 'assign', organizationId, agentId, systemId: system.id, projectId: e.target.value }, { method: 'post', action: '/resources/agent-actions' })
      }
    >
      <option value="" disabled={!canUnassign && system.projectId !== null}>
        (None)
      </option>
      {options.map((p) => (
        <option key={p.id} value={p.id}>
          {p.name}
        </option>
      ))}
    </NativeSelect>
  )
}
