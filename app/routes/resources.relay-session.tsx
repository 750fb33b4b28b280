import { type ActionFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { DomainError, invalid } from '~/domain/errors'
import { closeProxySession, openProxySession } from '~/domain/relay/sessions.server'
import { readSessionToken, requestInfo, requireUser } from '~/utils/auth.server'
import { readForm } from '~/utils/form.server'

const openSchema = z.object({ intent: z.literal('open'), organizationId: z.string().min(1).max(64), agentId: z.string().min(1).max(64), projectId: z.string().min(1).max(64).optional() })
const closeSchema = z.object({ intent: z.literal('close'), sessionId: z.string().min(1).max(64) })

/**
 * The remote portal page opens its proxy session here (POST intent=open): the relay address it
 * answers carries a one-time code for the frame (docs/security.md). intent=close ends the session
 * when the page leaves. The session is tied to this sign-in: signing out ends it.
 */
export async function action({ request }: ActionFunctionArgs) {
  const { actor } = await requireUser(request)
  const form = await readForm(request)
  try {
    const open = openSchema.safeParse(form)
    if (open.success) {
      const token = await readSessionToken(request)
      const session = await openProxySession(actor, open.data, requestInfo(request), token ?? '')
      return Response.json({ ok: true, result: { sessionId: session.sessionId, address: session.address } })
    }
    const close = closeSchema.safeParse(form)
    if (close.success) {
      await closeProxySession(actor, { sessionId: close.data.sessionId })
      return Response.json({ ok: true, result: { sessionId: close.data.sessionId, address: null } })
    }
    throw invalid('Unknown remote portal action')
  } catch (error) {
    if (error instanceof DomainError) return Response.json({ ok: false, code: error.code, message: error.message }, { status: error.status })
    throw error
  }
}
