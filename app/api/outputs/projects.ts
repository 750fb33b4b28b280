import { z } from 'zod'
import { type ProjectNode } from '~/domain/projects/projects.server'

/** A project of the tree with its sub-projects (recursive: named ProjectNode in openapi.json); the type is the domain's. */
export type { ProjectNode }
export const projectNode: z.ZodType<ProjectNode> = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  parentId: z.string().nullable(),
  parentName: z.string().nullable(),
  hasSubProjects: z.boolean(),
  canView: z.boolean(),
  canUpdate: z.boolean(),
  canDelete: z.boolean(),
  canUserAssignRole: z.boolean(),
  canMetricsView: z.boolean(),
  canCreateSubProject: z.boolean(),
  systemsCount: z.number(),
  linkTo: z.string(),
  subRows: z.array(z.lazy(() => projectNode)),
})

/** What each call of ../projects.server.ts answers (JSON: times are ISO strings). */
export const projectsOutputs = {
  'project/create': z.object({ projectId: z.string() }),
  'project/update': z.object({ projectId: z.string(), updated: z.array(z.enum(['name', 'description', 'parentId'])) }),
  'project/delete': z.object({ deletedProjectIds: z.array(z.string()), unassignedSystems: z.number() }),
  'project/list': z.object({
    projects: z.array(projectNode),
    systems: z.object({ total: z.number(), unassigned: z.number() }),
  }),
  'project/members': z.object({
    members: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        email: z.string(),
        isOwner: z.boolean(),
        inheritedRoles: z.array(z.object({ roleId: z.string(), roleName: z.string(), scope: z.string() })),
        projectRoles: z.array(z.object({ roleId: z.string(), roleName: z.string() })),
      })
    ),
    roles: z.array(z.object({ id: z.string(), name: z.string(), resourceType: z.number(), assignable: z.boolean() })),
    canAssign: z.boolean(),
  }),
  'project/memberRoleAssign': z.object({ accessRightId: z.string() }),
  'project/memberRoleUnassign': z.object({ removed: z.number() }),
}
