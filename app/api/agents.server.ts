import { z } from 'zod'
import { assignSystemInput, assignSystemToProject, listAgents, listAgentsInput, removeAgentFromOrganization, updateAgentLocation, updateLocationInput } from '~/domain/agents/agents.server'
import { enrollAgent, lookupApplication } from '~/domain/agents/enrollment.server'
import { listSelfEnrollOptions, setSelfEnrollTargets, targetsInput } from '~/domain/agents/self-enroll.server'
import { defineCall, type ApiCalls } from './registry.server'
import { agentsOutputs } from './outputs/agents'

/** Agent calls of spec 02 section 7 (enrollment, system assignment, removal, location) and the agent list. */
export const agentCalls: ApiCalls = {
  'agent/applicationLookup': defineCall({
    input: z.object({ applicationCode: z.string() }),
    output: agentsOutputs['agent/applicationLookup'],
    handler: ({ actor }, input) => lookupApplication(actor, input.applicationCode),
  }),
  /** id: an organization (id or name); organizationName: a typed name (created when no organization has it). */
  'agent/enroll': defineCall({
    input: z.object({
      id: z.string().optional(),
      organizationName: z.string().optional(),
      applicationCode: z.string(),
      projectId: z.string().optional(),
      projectName: z.string().optional(),
    }),
    output: agentsOutputs['agent/enroll'],
    handler: ({ actor }, input) =>
      enrollAgent(actor, {
        applicationCode: input.applicationCode,
        organizationId: input.id,
        newOrganizationName: input.organizationName,
        projectId: input.projectId,
        newProjectName: input.projectName,
      }),
  }),
  'agent/remove': defineCall({
    input: z.object({ id: z.string(), agentId: z.string() }),
    output: agentsOutputs['agent/remove'],
    handler: ({ actor }, input) => removeAgentFromOrganization(actor, { organizationId: input.id, agentId: input.agentId }),
  }),
  'project/systemAssign': defineCall({
    input: assignSystemInput,
    output: agentsOutputs['project/systemAssign'],
    handler: ({ actor }, input) => assignSystemToProject(actor, input),
  }),
  'agent/locationUpdate': defineCall({
    input: updateLocationInput,
    output: agentsOutputs['agent/locationUpdate'],
    handler: ({ actor }, input) => updateAgentLocation(actor, input),
  }),
  'agent/list': defineCall({
    input: listAgentsInput.extend({ organizationId: z.string() }),
    output: agentsOutputs['agent/list'],
    handler: ({ actor }, { organizationId, ...options }) => listAgents(actor, organizationId, options),
  }),
  'admin/selfEnrollTargets': defineCall({
    input: z.object({}),
    output: agentsOutputs['admin/selfEnrollTargets'],
    handler: async ({ actor }) => ({ options: await listSelfEnrollOptions(actor) }),
  }),
  'admin/selfEnrollTargetsUpdate': defineCall({
    input: targetsInput,
    output: agentsOutputs['admin/selfEnrollTargetsUpdate'],
    handler: async ({ actor }, input) => ({ targets: await setSelfEnrollTargets(actor, input) }),
  }),
}
