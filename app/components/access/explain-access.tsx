import { CheckCircle2, HelpCircle, XCircle } from 'lucide-react'
import { useState } from 'react'
import type { AccessExplanation } from '~/domain/access/explain.server'
import { ApiError, callApi } from '~/utils/api-client'
import { Button } from '../ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card'
import { NativeSelect } from '../ui/native-select'

export type ExplainChoices = {
  canExplainOthers: boolean
  members: { id: string; name: string; email: string }[]
  projects: { id: string; name: string }[]
  permissions: string[]
}

/**
 * 'Explain access': pick a member, a permission and a place (the organization or a project); the
 * answer comes from access/explain, which runs the real permission check for that member.
 */
export function ExplainAccessCard({ organizationId, choices, currentUserId }: { organizationId: string; choices: ExplainChoices; currentUserId: string }) {
  const [userId, setUserId] = useState(choices.members.some((m) => m.id === currentUserId) ? currentUserId : (choices.members[0]?.id ?? ''))
  const [permission, setPermission] = useState('project.view')
  const [projectId, setProjectId] = useState(choices.projects[0]?.id ?? '')
  const [result, setResult] = useState<AccessExplanation | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function explain() {
    setBusy(true)
    setError(null)
    try {
      setResult(await callApi<AccessExplanation>('access/explain', { organizationId, userId, permission, projectId: projectId || null }))
    } catch (e) {
      setResult(null)
      setError(e instanceof ApiError ? e.message : 'An unrecognized error has occurred')
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card data-testid="explain-access">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <HelpCircle className="size-4 text-muted-foreground" /> Explain access
        </CardTitle>
        <CardDescription>
          {choices.canExplainOthers ? 'Why a member may or may not do something, and through which role and project.' : 'Why you may or may not do something, and through which role and project.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        <div className="grid gap-2 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-end">
          <label className="grid gap-1 text-xs font-medium">
            Member
            <NativeSelect aria-label="Member" value={userId} onChange={(e) => setUserId(e.target.value)} disabled={!choices.canExplainOthers}>
              {choices.members.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name || m.email}
                </option>
              ))}
            </NativeSelect>
          </label>
          <label className="grid gap-1 text-xs font-medium">
            Permission
            <NativeSelect aria-label="Permission" value={permission} onChange={(e) => setPermission(e.target.value)}>
              {choices.permissions.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </NativeSelect>
          </label>
          <label className="grid gap-1 text-xs font-medium">
            Where
            <NativeSelect aria-label="Where" value={projectId} onChange={(e) => setProjectId(e.target.value)}>
              <option value="">Organization</option>
              {choices.projects.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </NativeSelect>
          </label>
          <Button onClick={explain} disabled={busy || !userId}>
            {busy ? 'Explaining…' : 'Explain'}
          </Button>
        </div>
        {error ? <p className="text-sm text-destructive">{error}</p> : null}
        {result ? <ExplanationView result={result} /> : null}
      </CardContent>
    </Card>
  )
}

function ExplanationView({ result }: { result: AccessExplanation }) {
  return (
    <div className={result.granted ? 'rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm' : 'rounded-md border border-red-200 bg-red-50 p-3 text-sm'} data-testid="access-explanation">
      <p className="flex items-start gap-2 font-medium">
        {result.granted ? <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-emerald-700" /> : <XCircle className="mt-0.5 size-4 shrink-0 text-red-700" />}
        <span>
          <span className="mr-1.5 font-semibold">{result.granted ? 'Granted.' : 'Not granted.'}</span>
          {result.summary}
        </span>
      </p>
      {result.chain.length ? (
        <p className="mt-2 text-xs text-muted-foreground">
          Checked: {result.chain.map((p) => p.name).join(' → ')} → Organization
        </p>
      ) : null}
      {result.grants.length ? (
        <table className="mt-2 w-full text-xs">
          <thead className="text-left text-muted-foreground">
            <tr>
              <th className="py-1 pr-4 font-medium">Role</th>
              <th className="py-1 pr-4 font-medium">Right</th>
              <th className="py-1 font-medium">Inherited from</th>
            </tr>
          </thead>
          <tbody>
            {result.grants.map((g, i) => (
              <tr key={i} className="border-t border-black/5">
                <td className="py-1 pr-4 font-medium">{g.roleName}</td>
                <td className="py-1 pr-4">{g.level === 'organization' ? 'Organization-wide' : `Project ${g.projectName}`}</td>
                <td className="py-1">{g.inherited ? g.projectName : g.level === 'organization' ? 'Organization' : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  )
}
