import { z } from 'zod'
import { type Actor } from '../actor'
import { audit } from '../audit/audit.server'
import { accessDenied, fromZodIssues, invalid } from '../errors'
import { emitChange } from '../events/bus.server'
import { parseJson, prisma } from '~/utils/db.server'

/** An organization/project pair agents may enroll themselves into (platform setting). */
export type SelfEnrollTarget = { organizationId: string; projectId: string }

const PLATFORM_ID = 'platform'
const targetSchema = z.object({ organizationId: z.string().min(1), projectId: z.string().min(1) })
export const targetsInput = z.object({ targets: z.array(targetSchema).max(1000) })

function requireSiteAdmin(actor: Actor) {
  if (actor.kind === 'system') return
  if (actor.kind !== 'user' || !actor.isSiteAdmin) throw accessDenied()
}

async function storedTargets(): Promise<SelfEnrollTarget[]> {
  const settings = await prisma.platformSettings.findUnique({ where: { id: PLATFORM_ID } })
  const list = parseJson<unknown>(settings?.selfEnrollTargets, [])
  const parsed = z.array(targetSchema).safeParse(list)
  return parsed.success ? parsed.data : []
}

export async function isSelfEnrollTarget(organizationId: string, projectId: string): Promise<boolean> {
  return (await storedTargets()).some((t) => t.organizationId === organizationId && t.projectId === projectId)
}

export type SelfEnrollOption = SelfEnrollTarget & { organizationName: string; projectName: string; enabled: boolean }

/** Every organization/project pair of the platform, with whether agents may enroll into it (site admins). */
export async function listSelfEnrollOptions(actor: Actor): Promise<SelfEnrollOption[]> {
  requireSiteAdmin(actor)
  const [targets, projects] = await Promise.all([
    storedTargets(),
    prisma.project.findMany({ select: { id: true, name: true, parentId: true, organization: { select: { id: true, name: true } } } }),
  ])
  const enabled = new Set(targets.map((t) => `${t.organizationId}/${t.projectId}`))
  const byId = new Map(projects.map((p) => [p.id, p]))
  // Nested projects read as 'Parent / Child' (a visited set guards against a corrupt cycle).
  const path = (id: string) => {
    const names: string[] = []
    const seen = new Set<string>()
    for (let p = byId.get(id); p && !seen.has(p.id); p = p.parentId ? byId.get(p.parentId) : undefined) {
      seen.add(p.id)
      names.unshift(p.name)
    }
    return names.join(' / ')
  }
  return projects
    .map((p) => ({
      organizationId: p.organization.id,
      organizationName: p.organization.name,
      projectId: p.id,
      projectName: path(p.id),
      enabled: enabled.has(`${p.organization.id}/${p.id}`),
    }))
    .sort((a, b) => a.organizationName.localeCompare(b.organizationName) || a.organizationId.localeCompare(b.organizationId) || a.projectName.localeCompare(b.projectName))
}

export async function getSelfEnrollTargets(actor: Actor): Promise<SelfEnrollTarget[]> {
  requireSiteAdmin(actor)
  return storedTargets()
}

/** Replaces the allowed pairs; each must be an existing project of that organization. Audited site-wide. */
export async function setSelfEnrollTargets(actor: Actor, raw: unknown): Promise<SelfEnrollTarget[]> {
  requireSiteAdmin(actor)
  const parsed = targetsInput.safeParse(raw)
  if (!parsed.success) throw fromZodIssues(parsed.error.issues)
  const unique = [...new Map(parsed.data.targets.map((t) => [`${t.organizationId}/${t.projectId}`, t])).values()]
  const existing = await prisma.project.findMany({
    where: { id: { in: unique.map((t) => t.projectId) } },
    select: { id: true, organizationId: true },
  })
  const valid = new Set(existing.map((p) => `${p.organizationId}/${p.id}`))
  const unknown = unique.find((t) => !valid.has(`${t.organizationId}/${t.projectId}`))
  if (unknown) throw invalid(`No such project ${unknown.projectId} in org ${unknown.organizationId}`)
  const targets = unique.map(({ organizationId, projectId }) => ({ organizationId, projectId }))
  await prisma.$transaction(async (tx) => {
    const value = JSON.stringify(targets)
    await tx.platformSettings.upsert({ where: { id: PLATFORM_ID }, create: { id: PLATFORM_ID, selfEnrollTargets: value }, update: { selfEnrollTargets: value } })
    await audit(tx, actor, { action: 'platform.selfEnrollTargets', message: `Set ${targets.length} agent self-enroll target(s)` })
  })
  emitChange({ organizationId: null, kind: 'site' })
  return targets
}
