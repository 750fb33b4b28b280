import { type ActionFunctionArgs } from '@remix-run/node'
import { assignSystemToProject, removeAgentFromOrganization, updateAgentLocation } from '~/domain/agents/agents.server'
import { invalid } from '~/domain/errors'
import { requireUser } from '~/utils/auth.server'
import { formAction } from '~/utils/errors.server'
import { readForm } from '~/utils/form.server'

/**
 * Form actions of the fleet screens (agents list, agent detail, project agents tab): assign a
 * system to a project, remove an agent, set its location. Each calls the same domain function as
 * the /client/v1 API.
 */
export async function action({ request }: ActionFunctionArgs) {
  const { actor } = await requireUser(request)
  const form = await readForm(request)
  const { intent, organizationId, agentId } = form
  if (intent === 'assign') {
    return formAction(() => assignSystemToProject(actor, { organizationId, agentId, systemId: form.systemId, projectId: form.projectId || null }), 'System assignment updated')
  }
  if (intent === 'remove') {
    return formAction(() => removeAgentFromOrganization(actor, { organizationId, agentId }), 'Agent removed')
  }
  if (intent === 'location') {
    // either coordinate given means both are meant: a missing or bad one is a 400, never silently ignored
    const manual = form.lati || form.long ? { lati: form.lati ? Number(form.lati) : NaN, long: form.long ? Number(form.long) : NaN } : undefined
    return formAction(() => updateAgentLocation(actor, { organizationId, agentId, useLocationMode: form.useLocationMode, locationManual: manual }), 'Location updated')
  }
  return formAction(async () => {
    throw invalid(`Unknown intent '${intent}'`)
  })
}
