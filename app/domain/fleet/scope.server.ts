import { Prisma } from '@prisma/client'
import { type Actor } from '../actor'
import { getOrganizationAccess, type OrganizationAccess } from '../access/access.server'
import { type Permission } from '../access/catalogue'
import { accessDenied } from '../errors'
import { prisma } from '~/utils/db.server'
import { ID_CHUNK } from '~/utils/id-chunks'
import { memoIfScoped } from '~/utils/request-scope.server'

/** FleetScope.systemsInProjects for callers without a scope: `allProjectIds` = every project of the organization. */
export function systemsInProjectsOf(organizationId: string, allProjectIds: readonly string[], projectIds: readonly string[]): Prisma.SystemWhereInput {
  if (projectIds.length <= ID_CHUNK || projectIds.length * 2 <= allProjectIds.length) return { projectId: { in: [...projectIds] } }
  const wanted = new Set(projectIds)
  const others = allProjectIds.filter((id) => !wanted.has(id))
  return { project: others.length ? { organizationId, id: { notIn: others } } : { organizationId } }
}

export type ProjectInfo = { id: string; name: string; parentId: string | null }

/**
 * What part of an organization's fleet one viewer may see. Systems of projects the viewer cannot
 * view are hidden; unassigned systems are visible only with organization-level rights; agents are
 * listed when the viewer holds agent.list on the organization or on a project one of their systems
 * reports to.
 */
export class FleetScope {
  constructor(
    readonly access: OrganizationAccess,
    readonly projects: Map<string, ProjectInfo>,
  ) {}

  get organizationId() {
    return this.access.organization.id
  }

  /** Organization-level agent rights: every agent and the unassigned systems. */
  get orgWide(): boolean {
    return this.access.can('agent.list')
  }

  /** Projects whose systems the viewer sees. */
  get viewableProjectIds(): string[] {
    return [...this.projects.keys()].filter((id) => this.access.can('project.view', id))
  }

  /** Projects through which the viewer may list agents. */
  get agentListProjectIds(): string[] {
    return this.viewableProjectIds.filter((id) => this.access.can('agent.list', id))
  }

  canSeeSystem(projectId: string | null): boolean {
    return projectId === null ? this.orgWide : this.projects.has(projectId) && this.access.can('project.view', projectId)
  }

  /** SQL condition on a System alias `s` (or the given alias) selecting the visible systems. */
  visibleSystemSql(alias = 's'): Prisma.Sql {
    const column = Prisma.raw(`${alias}."projectId"`)
    const ids = this.viewableProjectIds
    const inProjects = ids.length ? Prisma.sql`${column} IN (${Prisma.join(ids)})` : Prisma.sql`FALSE`
    return this.orgWide ? Prisma.sql`(${column} IS NULL OR ${inProjects})` : inProjects
  }

  /** SQL condition on an Agent alias `a` selecting the agents this viewer may list. */
  visibleAgentSql(alias = 'a'): Prisma.Sql {
    const org = Prisma.sql`${Prisma.raw(`${alias}."organizationId"`)} = ${this.organizationId}`
    if (this.orgWide) return org
    const ids = this.agentListProjectIds
    if (!ids.length) return Prisma.sql`FALSE`
    return Prisma.sql`${org} AND ${Prisma.raw(`${alias}."id"`)} IN (SELECT "agentId" FROM "System" WHERE "projectId" IN (${Prisma.join(ids)}))`
  }

  /** Prisma filter for visible systems. */
  visibleSystemWhere(): Prisma.SystemWhereInput {
    const inProjects = this.systemsInProjects(this.viewableProjectIds)
    return this.orgWide ? { OR: [{ projectId: null }, inProjects] } : inProjects
  }

  /**
   * Prisma filter for systems assigned to `projectIds` (projects of this organization). An
   * organization may hold more projects than a statement binds beside other conditions (P2029;
   * SQLITE_MAX_BIND_VALUES in app/utils/db.server.ts), and these lists go into paged queries that cannot be split: the shorter of the list
   * and its complement in the organization is bound, none when the list holds every project.
   */
  systemsInProjects(projectIds: readonly string[]): Prisma.SystemWhereInput {
    return systemsInProjectsOf(this.organizationId, [...this.projects.keys()], projectIds)
  }

  /** Name chain from the root to the project (for breadcrumbs and labels). */
  projectPath(projectId: string): ProjectInfo[] {
    return this.access
      .projectChain(projectId)
      .map((id) => this.projects.get(id))
      .filter((p): p is ProjectInfo => Boolean(p))
      .reverse()
  }

  /** The project and every project below it. */
  subtree(projectId: string): string[] {
    const result = [projectId]
    for (let i = 0; i < result.length; i++) {
      for (const p of this.projects.values()) if (p.parentId === result[i]) result.push(p.id)
    }
    return result
  }
}

/** Loads the viewer's fleet scope; `permission` is required somewhere in the organization. */
export async function loadFleetScope(actor: Actor, organizationId: string, permission: Permission): Promise<FleetScope> {
  const access = await getOrganizationAccess(actor, organizationId)
  if (!access.canAnywhere(permission)) throw accessDenied()
  const projects = await memoIfScoped(actor, `fleet-projects:${organizationId}`, () => prisma.project.findMany({ where: { organizationId }, select: { id: true, name: true, parentId: true } }))
  return new FleetScope(access, new Map(projects.map((p) => [p.id, p])))
}
