import { z } from 'zod'
import {
  createOrganization,
  createOrganizationInput,
  deleteOrganization,
  getOrganization,
  leaveOrganization,
  listOrganizationsForUser,
  requestBilling,
  transferOwnership,
  updateOrganization,
  updateOrganizationInput,
} from '~/domain/organizations/organizations.server'
import { defineCall, definePublicCall, type ApiCalls } from './registry.server'
import { organizationsOutputs } from './outputs/organizations'

const organizationId = z.string({ required_error: 'Organization is required' }).min(1, 'Organization is required')

/** Organization calls of spec 02 section 7; the pages call the same domain functions. */
export const organizationCalls: ApiCalls = {
  // Public so the domain answers a caller without a user itself: 'Not authorized' (spec 02 section 8).
  'organization/create': definePublicCall({
    input: createOrganizationInput.extend({ owner: z.string().optional() }),
    output: organizationsOutputs['organization/create'],
    handler: ({ actor }, { owner, ...doc }) => createOrganization(actor, doc, owner),
  }),
  'organization/update': defineCall({
    input: z.object({ id: organizationId, doc: updateOrganizationInput }),
    payloadField: 'doc',
    output: organizationsOutputs['organization/update'],
    handler: ({ actor }, { id, doc }) => updateOrganization(actor, id, doc),
  }),
  'organization/delete': defineCall({
    input: z.object({ id: organizationId }),
    output: organizationsOutputs['organization/delete'],
    handler: ({ actor }, { id }) => deleteOrganization(actor, id),
  }),
  'organization/memberLeave': defineCall({
    input: z.object({ id: organizationId }),
    output: organizationsOutputs['organization/memberLeave'],
    handler: ({ actor }, { id }) => leaveOrganization(actor, id),
  }),
  'organization/transferOwner': defineCall({
    input: z.object({ id: organizationId, newOwnerId: z.string().nullish() }),
    output: organizationsOutputs['organization/transferOwner'],
    handler: ({ actor }, { id, newOwnerId }) => transferOwnership(actor, id, newOwnerId),
  }),
  'organization/billingStatusUpdateRequest': defineCall({
    input: z.object({ id: z.string().nullish() }),
    output: organizationsOutputs['organization/billingStatusUpdateRequest'],
    handler: ({ actor }, { id }) => requestBilling(actor, id),
  }),
  /** One organization's fields and the caller's capabilities (what `pixelfleet orgs show` prints). */
  'organization/get': defineCall({
    input: z.object({ id: organizationId }),
    output: organizationsOutputs['organization/get'],
    handler: ({ actor }, { id }) => getOrganization(actor, id),
  }),
  'organization/list': defineCall({
    input: z.object({}),
    output: organizationsOutputs['organization/list'],
    handler: async ({ actor }) => ({ organizations: await listOrganizationsForUser(actor) }),
  }),
}
