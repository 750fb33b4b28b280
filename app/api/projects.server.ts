import { z } from 'zod'
import {
  assignProjectMemberRole,
  createProject,
  createProjectInput,
  deleteProject,
  listProjectMembers,
  listProjects,
  unassignProjectMemberRole,
  projectMemberRoleInput,
  updateProject,
  updateProjectInput,
} from '~/domain/projects/projects.server'
import { defineCall, type ApiCalls } from './registry.server'
import { projectsOutputs } from './outputs/projects'

const organizationId = z.string({ required_error: 'Organization is required' }).min(1, 'Organization is required')
const projectId = z.string({ required_error: 'Project is required' }).min(1, 'Project is required')

/** Project calls of spec 02 section 7 (membership roles: one call per added or removed role). */
export const projectCalls: ApiCalls = {
  'project/create': defineCall({
    input: z.object({ organizationId, project: createProjectInput }),
    payloadField: 'project',
    output: projectsOutputs['project/create'],
    handler: ({ actor }, input) => createProject(actor, input.organizationId, input.project),
  }),
  'project/update': defineCall({
    input: z.object({ organizationId, projectId, doc: updateProjectInput }),
    payloadField: 'doc',
    output: projectsOutputs['project/update'],
    handler: ({ actor }, input) => updateProject(actor, input.organizationId, input.projectId, input.doc),
  }),
  'project/delete': defineCall({
    input: z.object({ organizationId, projectId, recurse: z.boolean().default(false) }),
    output: projectsOutputs['project/delete'],
    handler: ({ actor }, input) => deleteProject(actor, input.organizationId, input.projectId, input.recurse),
  }),
  'project/list': defineCall({
    input: z.object({ organizationId }),
    output: projectsOutputs['project/list'],
    handler: ({ actor }, input) => listProjects(actor, input.organizationId),
  }),
  'project/members': defineCall({
    input: z.object({ organizationId, projectId }),
    output: projectsOutputs['project/members'],
    handler: ({ actor }, input) => listProjectMembers(actor, input.organizationId, input.projectId),
  }),
  'project/memberRoleAssign': defineCall({
    input: projectMemberRoleInput,
    output: projectsOutputs['project/memberRoleAssign'],
    handler: ({ actor }, input) => assignProjectMemberRole(actor, input),
  }),
  'project/memberRoleUnassign': defineCall({
    input: projectMemberRoleInput,
    output: projectsOutputs['project/memberRoleUnassign'],
    handler: ({ actor }, input) => unassignProjectMemberRole(actor, input),
  }),
}
