import { z } from 'zod'
import { type Actor } from '../actor'
import { audit } from '../audit/audit.server'
import { accessDenied, fromZodIssues, invalid } from '../errors'
import { emitChange } from '../events/bus.server'
import { containsIgnoringCase, parseJson, prisma } from '~/utils/db.server'

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
  const [targets, projects] = await Promise.all([storedTargets(), prisma.project.findMany({ select: PROJECT_ROW })])
  // every project is here, so the paths need no further reads
  const paths = await projectPaths(projects)
  const enabled = new Set(targets.map((t) => `${t.organizationId}/${t.projectId}`))
  return projects.map((p) => toOption(p, paths, enabled)).sort(byOrganizationThenProject)
}

/** Options a page of the admin Utility screen shows at once (a service may have thousands of projects). */
export const SELF_ENROLL_PAGE_SIZE = 50

/** The Utility screen's search: words of an organization or project name, and where the page starts. */
export const selfEnrollSearchInput = z
  .object({
    query: z.string().trim().max(200, 'The search may be at most 200 characters').default(''),
    offset: z.coerce.number().int('offset must be a whole number').min(0, 'offset must be 0 or more').max(1_000_000, 'offset must be at most 1000000').default(0),
  })
  .strict()

export type SelfEnrollSearch = {
  /** the switched-on pairs whose project still exists, with their names */
  enabled: SelfEnrollOption[]
  /** one page of the pairs matching the search, by organization name, then project name */
  options: SelfEnrollOption[]
  /** where the next page starts, or null after the last */
  nextOffset: number | null
}

type ProjectRow = { id: string; name: string; parentId: string | null; organization: { id: string; name: string } }
const PROJECT_ROW = { id: true, name: true, parentId: true, organization: { select: { id: true, name: true } } } as const

/** 'Parent / Child' names of the given projects, reading only their ancestors (a visited set guards against a corrupt cycle). */
async function projectPaths(rows: ProjectRow[]): Promise<Map<string, string>> {
  const byId = new Map<string, { name: string; parentId: string | null }>(rows.map((p) => [p.id, p]))
  for (let missing = rows.map((p) => p.parentId); ; ) {
    const ids = [...new Set(missing.filter((id): id is string => id !== null && !byId.has(id)))]
    if (!ids.length) break
    const parents = await prisma.project.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, parentId: true } })
    for (const p of parents) byId.set(p.id, p)
    for (const id of ids) if (!byId.has(id)) byId.set(id, { name: '', parentId: null })
    missing = parents.map((p) => p.parentId)
  }
  const paths = new Map<string, string>()
  for (const row of rows) {
    const names: string[] = []
    const seen = new Set<string>()
    for (let id: string | null = row.id; id && !seen.has(id); id = byId.get(id)?.parentId ?? null) {
      seen.add(id)
      const name = byId.get(id)?.name
      if (name) names.unshift(name)
    }
    paths.set(row.id, names.join(' / '))
  }
  return paths
}

function toOption(p: ProjectRow, paths: Map<string, string>, enabledKeys: Set<string>): SelfEnrollOption {
  return {
    organizationId: p.organization.id,
    organizationName: p.organization.name,
    projectId: p.id,
    projectName: paths.get(p.id) ?? p.name,
    enabled: enabledKeys.has(`${p.organization.id}/${p.id}`),
  }
}

const byOrganizationThenProject = (a: SelfEnrollOption, b: SelfEnrollOption) =>
  a.organizationName.localeCompare(b.organizationName) || a.organizationId.localeCompare(b.organizationId) || a.projectName.localeCompare(b.projectName)

/**
 * One page of the organization/project pairs for the admin Utility screen (site admins), found on
 * the server: at 1,000 organizations the whole list was 648 KB of page data. The switched-on pairs
 * come with every page, so the screen can show and save them whatever the search shows.
 */
export async function searchSelfEnrollOptions(actor: Actor, raw: unknown): Promise<SelfEnrollSearch> {
  requireSiteAdmin(actor)
  const parsed = selfEnrollSearchInput.safeParse(raw)
  if (!parsed.success) throw fromZodIssues(parsed.error.issues)
  const { query, offset } = parsed.data
  const words = query.split(/\s+/).filter(Boolean)
  const targets = await storedTargets()
  const [page, enabledRows] = await Promise.all([
    prisma.project.findMany({
      // every word in the organization's or the project's name
      where: words.length ? { AND: words.map((w) => ({ OR: [{ name: containsIgnoringCase(w) }, { organization: { name: containsIgnoringCase(w) } }] })) } : {},
      orderBy: [{ organization: { name: 'asc' } }, { organizationId: 'asc' }, { name: 'asc' }, { id: 'asc' }],
      skip: offset,
      take: SELF_ENROLL_PAGE_SIZE + 1,
      select: PROJECT_ROW,
    }),
    targets.length ? prisma.project.findMany({ where: { id: { in: targets.map((t) => t.projectId) } }, select: PROJECT_ROW }) : Promise.resolve([]),
  ])
  const rows = page.slice(0, SELF_ENROLL_PAGE_SIZE)
  const paths = await projectPaths([...rows, ...enabledRows])
  const enabledKeys = new Set(targets.map((t) => `${t.organizationId}/${t.projectId}`))
  const enabled = enabledRows
    .map((p) => toOption(p, paths, enabledKeys))
    .filter((o) => o.enabled)
    .sort(byOrganizationThenProject)
  return { enabled, options: rows.map((p) => toOption(p, paths, enabledKeys)), nextOffset: page.length > SELF_ENROLL_PAGE_SIZE ? offset + SELF_ENROLL_PAGE_SIZE : null }
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
