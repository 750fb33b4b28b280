import { z } from 'zod'
import { type Actor, type AgentActor } from '../actor'
import { getOrganizationAccess, type OrganizationAccess } from '../access/access.server'
import { audit } from '../audit/audit.server'
import { rateLimit } from '../auth/rate-limit.server'
import { DomainError, fromZodIssues, invalid, notLoggedIn } from '../errors'
import { emitChange } from '../events/bus.server'
import { memberOrganizationIds } from '../organizations/membership.server'
import { createOrganization } from '../organizations/organizations.server'
import { createProject } from '../projects/projects.server'
import { prisma, type Tx } from '~/utils/db.server'
import { ENROLLMENT_CODE_VALIDITY_MS, enrollmentCodeProblem, formatEnrollmentCode, normalizeEnrollmentCode } from './enrollment-code'
import { isSelfEnrollTarget } from './self-enroll.server'
import { byName } from '~/utils/name-order'

export const INVALID_APPLICATION_MESSAGE = 'No current enrollment code matches. Codes are valid for 14 days after the agent shows them and can be used once.'
export const PROJECT_REQUIRED = 'Please specify a project'
export const PROJECT_NAME_REQUIRED = 'Project name is required'

/** Attempts per user and per IP address within the window, so codes cannot be guessed. */
const CODE_GUESS_LIMITS = { perUser: 30, perIp: 60, windowMs: 10 * 60_000 }

const invalidApplication = () => new DomainError('enrollment/invalid-code', INVALID_APPLICATION_MESSAGE, 404)

async function limitCodeAttempts(actor: Actor) {
  if (actor.kind === 'system') return
  if (actor.kind === 'user') await rateLimit(`enrollCode:user:${actor.userId}`, CODE_GUESS_LIMITS.perUser, CODE_GUESS_LIMITS.windowMs)
  if (actor.ip) await rateLimit(`enrollCode:ip:${actor.ip}`, CODE_GUESS_LIMITS.perIp, CODE_GUESS_LIMITS.windowMs)
}

function parseCode(raw: string): string {
  const problem = enrollmentCodeProblem(raw)
  if (problem) throw invalid(problem, [{ path: 'applicationCode', message: problem }])
  return normalizeEnrollmentCode(raw)
}

/**
 * The application behind a code, only while the code is current: created within 14 days, the
 * newest code of its agent, not used yet, and the agent not enrolled anywhere.
 */
async function findCurrentApplication(db: Tx | typeof prisma, code: string, now = new Date()) {
  const application = await db.enrollmentCode.findUnique({ where: { code }, include: { agent: true } })
  if (!application || application.usedAt || application.agent.organizationId) return null
  if (now.getTime() - application.createdAt.getTime() > ENROLLMENT_CODE_VALIDITY_MS) return null
  const newer = await db.enrollmentCode.count({ where: { agentId: application.agentId, createdAt: { gt: application.createdAt } } })
  return newer === 0 ? application : null
}

export type ApplicationLookup = { applicationCode: string; applicationCreated: string; agentProduct: string; agentName: string }

/** agent/applicationLookup: what a person sees before enrolling (rate-limited against guessing). */
export async function lookupApplication(actor: Actor, rawCode: string): Promise<ApplicationLookup> {
  if (actor.kind === 'agent') throw notLoggedIn()
  const code = parseCode(rawCode)
  await limitCodeAttempts(actor)
  const application = await findCurrentApplication(prisma, code)
  if (!application) throw invalidApplication()
  return {
    applicationCode: formatEnrollmentCode(application.code),
    applicationCreated: application.createdAt.toISOString(),
    agentProduct: application.agent.product,
    agentName: application.agent.clientName,
  }
}

const optionalText = z.string().trim().optional()
export const enrollInput = z.object({
  applicationCode: z.string({ required_error: 'Please input enrollment code' }),
  /** an organization of the actor: its id, or its exact name */
  organizationId: optionalText,
  /** a typed name: the actor's organization of that name, otherwise a new organization they own */
  newOrganizationName: optionalText,
  /** a project of that organization: its id, or its exact name */
  projectId: optionalText,
  /** creates a project with this name */
  newProjectName: z.string().trim().optional(),
})
export type EnrollInput = z.input<typeof enrollInput>

async function resolveOrganization(actor: Actor, input: z.output<typeof enrollInput>): Promise<{ id: string; created: boolean }> {
  const reference = input.organizationId || input.newOrganizationName
  if (!reference) throw invalid('Please select an organization', [{ path: 'organizationId', message: 'Please select an organization' }])
  const mine = await prisma.organization.findMany({ where: { id: { in: await memberOrganizationIds(actor) } }, select: { id: true, name: true } })
  const byId = mine.find((o) => o.id === reference)
  if (byId) return { id: byId.id, created: false }
  const byName = mine.filter((o) => o.name.toLowerCase() === reference.toLowerCase())
  if (byName.length === 1) return { id: byName[0].id, created: false }
  if (byName.length > 1) throw invalid(`More than one organization is named ${reference}; use its id`, [{ path: 'organizationId', message: 'Ambiguous organization name' }])
  if (input.organizationId) {
    // An id the actor is not a member of: let the access check answer (403, or 404 for staff).
    await getOrganizationAccess(actor, input.organizationId)
    return { id: input.organizationId, created: false }
  }
  const { organizationId } = await createOrganization(actor, { name: reference })
  return { id: organizationId, created: true }
}

async function resolveProject(actor: Actor, access: OrganizationAccess, input: z.output<typeof enrollInput>): Promise<{ id: string; name: string }> {
  if (input.newProjectName !== undefined) {
    if (!input.newProjectName) throw invalid(PROJECT_NAME_REQUIRED, [{ path: 'newProjectName', message: PROJECT_NAME_REQUIRED }])
    const { projectId } = await createProject(actor, access.organization.id, { name: input.newProjectName })
    return { id: projectId, name: input.newProjectName }
  }
  const reference = input.projectId
  if (!reference) throw invalid(PROJECT_REQUIRED, [{ path: 'projectId', message: PROJECT_REQUIRED }])
  const projects = await prisma.project.findMany({
    where: { organizationId: access.organization.id, OR: [{ id: reference }, { name: reference }] },
    select: { id: true, name: true },
  })
  const project = projects.find((p) => p.id === reference) ?? (projects.length === 1 ? projects[0] : undefined)
  if (!project) {
    const message = `No such project ${reference} in org ${access.organization.name}`
    throw new DomainError('not-found', message, 404, [{ path: 'projectId', message }])
  }
  return project
}

/**
 * Makes the agent part of the organization, its systems part of the project, and remembers the
 * project for systems that appear later. Runs inside the caller's transaction.
 */
async function attachAgent(tx: Tx, agentId: string, organizationId: string, projectId: string) {
  const now = new Date()
  await tx.agent.update({ where: { id: agentId }, data: { organizationId, enrolledAt: now, defaultProjectId: projectId } })
  // Every code of the agent is spent: a later enrollment needs a fresh one from the agent.
  await tx.enrollmentCode.updateMany({ where: { agentId, usedAt: null }, data: { usedAt: now } })
  const { count } = await tx.system.updateMany({ where: { agentId }, data: { projectId } })
  return count
}

/**
 * Tells viewers and the broker. The broker listens for 'agent' changes and republishes the
 * agent's retained config topic, which is how the agent learns it was enrolled.
 */
function announceEnrollment(agentId: string, organizationId: string) {
  emitChange({ organizationId, kind: 'agent', ids: [agentId] })
  emitChange({ organizationId, kind: 'system' })
}

export type EnrollResult = { organizationId: string; projectId: string; agentId: string; organizationCreated: boolean; systemsAssigned: number }

/**
 * agent/enroll (Org/enrollOrganizationAgent): enrolls the agent behind a current code into an
 * organization and project, creating either when asked. Needs agent.enroll there.
 */
export async function enrollAgent(actor: Actor, raw: unknown): Promise<EnrollResult> {
  if (actor.kind !== 'user' && actor.kind !== 'system') throw notLoggedIn()
  const parsed = enrollInput.safeParse(raw)
  if (!parsed.success) throw fromZodIssues(parsed.error.issues)
  const input = parsed.data
  const code = parseCode(input.applicationCode)
  if (input.newProjectName === undefined && !input.projectId) throw invalid(PROJECT_REQUIRED, [{ path: 'projectId', message: PROJECT_REQUIRED }])
  if (input.newProjectName !== undefined && !input.newProjectName) throw invalid(PROJECT_NAME_REQUIRED, [{ path: 'newProjectName', message: PROJECT_NAME_REQUIRED }])
  await limitCodeAttempts(actor)
  // Check the code before creating anything, so a bad code leaves no stray organization or project.
  if (!(await findCurrentApplication(prisma, code))) throw invalidApplication()

  const organization = await resolveOrganization(actor, input)
  const access = await getOrganizationAccess(actor, organization.id)
  access.require('agent.enroll')
  const project = await resolveProject(actor, access, input)
  access.require('agent.enroll', project.id)

  const result = await prisma.$transaction(async (tx) => {
    const application = await findCurrentApplication(tx, code)
    if (!application) throw invalidApplication()
    const systemsAssigned = await attachAgent(tx, application.agentId, organization.id, project.id)
    const agentName = application.agent.clientName || application.agent.id
    await audit(tx, actor, {
      organizationId: organization.id,
      projectId: project.id,
      action: 'agent.enroll',
      message: `Enrolled agent ${agentName} into project ${project.name}`,
    })
    return { organizationId: organization.id, projectId: project.id, agentId: application.agentId, organizationCreated: organization.created, systemsAssigned }
  })
  announceEnrollment(result.agentId, result.organizationId)
  return result
}

export const selfEnrollInput = z.object({ organizationId: z.string().min(1), projectId: z.string().min(1) })

/**
 * An agent enrolls itself into an organization/project pair that site admins allowed
 * (platform setting selfEnrollTargets). Only an agent that is not enrolled yet may do so.
 */
export async function selfEnroll(actor: AgentActor, raw: unknown): Promise<{ organizationId: string; projectId: string }> {
  const parsed = selfEnrollInput.safeParse(raw)
  if (!parsed.success) throw fromZodIssues(parsed.error.issues)
  const { organizationId, projectId } = parsed.data
  if (!(await isSelfEnrollTarget(organizationId, projectId))) {
    throw new DomainError('permission-denied', 'This organization and project do not accept self-enrollment', 403)
  }
  await prisma.$transaction(async (tx) => {
    const agent = await tx.agent.findUnique({ where: { id: actor.agentId } })
    if (!agent) throw notLoggedIn()
    if (agent.organizationId) throw new DomainError('failed-precondition', 'The agent is already enrolled; remove it from its organization first', 409)
    const project = await tx.project.findFirst({ where: { id: projectId, organizationId }, select: { name: true } })
    if (!project) throw new DomainError('not-found', `No such project ${projectId} in org ${organizationId}`, 404)
    await attachAgent(tx, agent.id, organizationId, projectId)
    await audit(tx, actor, {
      organizationId,
      projectId,
      action: 'agent.selfEnroll',
      message: `Agent ${agent.clientName || agent.id} enrolled itself into project ${project.name}`,
    })
  })
  announceEnrollment(actor.agentId, organizationId)
  return { organizationId, projectId }
}

export type EnrollmentTarget = {
  id: string
  name: string
  /** the organization allows this user to enroll (agent.enroll) */
  canEnroll: boolean
  /** projects the user may enroll into, as 'Parent / Child' paths */
  projects: { id: string; name: string }[]
}

/** The actor's organizations with the projects they may enroll into (the enrollment page's pickers). */
export async function listEnrollmentTargets(actor: Actor): Promise<EnrollmentTarget[]> {
  const organizations = await prisma.organization.findMany({
    where: { id: { in: await memberOrganizationIds(actor) } },
    select: { id: true, name: true, projects: { select: { id: true, name: true, parentId: true } } },
    orderBy: { name: 'asc' },
  })
  return Promise.all(
    organizations.map(async (org) => {
      const access = await getOrganizationAccess(actor, org.id)
      const byId = new Map(org.projects.map((p) => [p.id, p]))
      const path = (id: string) =>
        access
          .projectChain(id)
          .reverse()
          .map((pid) => byId.get(pid)?.name ?? '')
          .join(' / ')
      const projects = org.projects
        .filter((p) => access.can('agent.enroll', p.id))
        .map((p) => ({ id: p.id, name: path(p.id) }))
        .sort(byName)
      return { id: org.id, name: org.name, canEnroll: access.can('agent.enroll'), projects }
    }),
  )
}
