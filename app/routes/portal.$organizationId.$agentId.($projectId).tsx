import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData, useNavigate } from '@remix-run/react'
import { Loader2, MonitorUp, X } from 'lucide-react'
import { useEffect, useState } from 'react'
import { toast } from 'sonner'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { NativeSelect } from '~/components/ui/native-select'
import { portalView } from '~/domain/relay/portal.server'
import { requireUser, safeRedirect } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const view = await domainCall(() => portalView(actor, { organizationId: params.organizationId!, agentId: params.agentId!, projectId: params.projectId }))
  const close = new URL(request.url).searchParams.get('close')
  return { ...view, close: close ? safeRedirect(close) : null }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.agent.name ?? 'Remote portal'} · Remote portal · Pixelfleet` }]

/**
 * What an agent's web interface may do in the portal's frame (docs/security.md, "The portal
 * frame"): run scripts, keep its own cookies and storage on its session origin (allow-same-origin:
 * that origin is the relay's, never the portal's), submit forms, open popups and dialogs, download
 * files. Not allow-top-navigation: a page in the frame can never navigate the portal tab away.
 */
const AGENT_FRAME_SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-popups allow-modals allow-downloads'

type OpenAnswer = { ok: true; result: { sessionId: string; address: string } }

const post = (body: Record<string, string>, keepalive = false) =>
  fetch('/resources/relay-session', { method: 'POST', body: new URLSearchParams(body), keepalive, headers: { Accept: 'application/json' } })

/**
 * Opens a relay session for one agent (docs/security.md): the portal answers the session's
 * one-time address on its own origin ({session}.{RELAY_DOMAIN}); the frame redeems it once and is
 * then bound to this browser. The session ends when the page leaves.
 */
function useRelaySession(organizationId: string, agentId: string, projectId: string | null) {
  const [address, setAddress] = useState<string | null>(null)
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    let active = true
    let close: (() => void) | undefined
    setAddress(null)
    setFailed(false)
    void (async () => {
      try {
        const response = await post({ intent: 'open', organizationId, agentId, ...(projectId ? { projectId } : {}) })
        if (!response.ok) throw new Error(`relay session answered ${response.status}`)
        const { result } = (await response.json()) as OpenAnswer
        close = () => void post({ intent: 'close', sessionId: result.sessionId }, true).catch(() => undefined)
        if (!active) return close()
        setAddress(result.address)
      } catch {
        if (!active) return
        setFailed(true)
        toast.error('Failed to authenticated with the Relay')
      }
    })()
    return () => {
      active = false
      close?.()
    }
  }, [organizationId, agentId, projectId])
  return { address, failed }
}

/** Remote portal: the agent's own web interface through the relay, in a frame below a slim header. */
export default function RemotePortal() {
  const { organization, agent, agents, projectId, close } = useLoaderData<typeof loader>()
  const navigate = useNavigate()
  const { address, failed } = useRelaySession(organization.id, agent.id, projectId)
  const closeQuery = close ? `?close=${encodeURIComponent(close)}` : ''

  return (
    <div className="flex h-screen flex-col bg-background">
      <header className="flex h-12 shrink-0 items-center gap-3 border-b bg-card px-4">
        <MonitorUp className="size-4 text-muted-foreground" aria-hidden />
        <span className="whitespace-nowrap text-sm font-semibold">Remote portal</span>
        <span className="hidden truncate text-xs text-muted-foreground sm:inline">{organization.name}</span>
        <span className="hidden h-5 w-px shrink-0 bg-border sm:block" aria-hidden />
        {agents.length > 1 ? (
          <label className="flex items-center gap-2 text-xs text-muted-foreground">
            Agent
            <NativeSelect
              aria-label="Connected agent"
              value={agent.id}
              onChange={(e) => navigate(`/portal/${organization.id}/${e.target.value}/${projectId}${closeQuery}`)}
              className="h-7 min-w-48 text-[13px] text-foreground"
            >
              {agents.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </NativeSelect>
          </label>
        ) : (
          <Badge variant="outline" className="block min-w-0 truncate px-2 py-1 text-xs">
            Connected to: {agent.name}
          </Badge>
        )}
        {!agent.tunnelConnected ? (
          <Badge variant="warning" className="px-2 py-1 text-xs">
            Tunnel not connected
          </Badge>
        ) : null}
        <Button variant="outline" size="sm" className="ml-auto shrink-0" onClick={() => navigate(close ?? '/')}>
          <X /> Close
        </Button>
      </header>
      <main className="relative flex-1">
        {address ? (
          <iframe title={`Web interface of ${agent.name}`} src={address} sandbox={AGENT_FRAME_SANDBOX} className="absolute inset-0 size-full border-0 bg-white" />
        ) : (
          <div className="flex h-full items-center justify-center gap-2 text-sm text-muted-foreground">
            {failed ? (
              'The relay did not accept this session. Close the portal and try again.'
            ) : (
              <>
                <Loader2 className="size-4 animate-spin" aria-hidden /> Connecting to {agent.name}…
              </>
            )}
          </div>
        )}
      </main>
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
