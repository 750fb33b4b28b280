import { z } from 'zod'
import { type Actor, type UserActor } from '../actor'
import { getOrganizationAccess, type OrganizationAccess } from '../access/access.server'
import { rateLimit } from '../auth/rate-limit.server'
import { audit } from '../audit/audit.server'
import { escapeHtml } from '../auth/verification.server'
import { DomainError, accessDenied, invalid, notFound } from '../errors'
import { requireAccountWrite } from '../auth/token-scope'
import { emitChange } from '../events/bus.server'
import { sendMail } from '../mail/mail.server'
import { memberOrganizationIds } from '../organizations/membership.server'
import { parseInput } from '../parse-input'
import { MAX_SUBSCRIPTION_STEP } from './severity'
import { channelOptions, type ChannelOption } from './channels/channels.server'
import { REPEAT_CHOICES_MINUTES, REPEAT_LABELS } from './follow-up-choices'
import { prisma } from '~/utils/db.server'
import { byName, compareNames } from '~/utils/name-order'

export const SUBSCRIPTION_LEVELS = ['default', 'organization', 'project'] as const
export type SubscriptionLevel = (typeof SUBSCRIPTION_LEVELS)[number]

export type SubscriptionView = {
  id: string
  level: SubscriptionLevel
  target: string
  alerts: number
  deviations: number
  channelId: string | null
  notifyResolved: boolean
  repeatMinutes: number
}
export type ProjectSubscriptionNode = { id: string; name: string; parentId: string | null; depth: number; subscription: SubscriptionView | null }
export type OrganizationSubscriptionNode = { id: string; name: string; subscription: SubscriptionView | null; projects: ProjectSubscriptionNode[]; channels: ChannelOption[] }
export type SubscriptionTree = { default: SubscriptionView | null; organizations: OrganizationSubscriptionNode[] }

const stepField = (label: string) =>
  z.coerce
    .number({ invalid_type_error: `${label} must be a step from 0 to ${MAX_SUBSCRIPTION_STEP}` })
    .int(`${label} must be a step from 0 to ${MAX_SUBSCRIPTION_STEP}`)
    .min(0, `${label} must be a step from 0 to ${MAX_SUBSCRIPTION_STEP}`)
    .max(MAX_SUBSCRIPTION_STEP, `${label} must be a step from 0 to ${MAX_SUBSCRIPTION_STEP}`)

const REPEAT_ERROR = `Repeat every must be one of ${REPEAT_CHOICES_MINUTES.join(', ')} minutes (0 = never)`

/** User/updateSubscription: `id` alone deletes; `doc` creates (level and target needed) or updates. */
export const updateSubscriptionInput = z.object({
  id: z.string().min(1).optional(),
  doc: z
    .object({
      level: z.enum(SUBSCRIPTION_LEVELS, { errorMap: () => ({ message: 'Level must be default, organization or project' }) }).optional(),
      target: z.string({ invalid_type_error: 'Target must be text' }).optional(),
      alerts: stepField('Alerts').optional(),
      deviations: stepField('Deviations').optional(),
      /** a notification channel of the subscription's organization, or null for e-mail only */
      channel: z.string({ invalid_type_error: 'Channel must be a channel id' }).min(1, 'Channel must be a channel id').nullable().optional(),
      /** one message when an alarm it told about clears (decision 048) */
      notifyResolved: z.boolean({ invalid_type_error: 'Notify when resolved must be true or false' }).optional(),
      /** repeat while an alarm stays active and unacknowledged: 0 = never, or 60, 240, 720, 1440 minutes */
      repeatMinutes: z
        .number({ invalid_type_error: REPEAT_ERROR })
        .int(REPEAT_ERROR)
        .refine((m) => (REPEAT_CHOICES_MINUTES as readonly number[]).includes(m), REPEAT_ERROR)
        .optional(),
    })
    // an unknown setting (a typo) is an error, not silently dropped
    .strict()
    .optional(),
})

export const testNotificationInput = z.object({
  organization: z.string({ required_error: 'Organization is required' }).min(1, 'Organization is required'),
  project: z.string().optional().nullable(),
})

function requireUser(actor: Actor): UserActor {
  if (actor.kind !== 'user') throw new DomainError('unauthenticated', 'Not authorized', 401)
  return actor
}

/** The sentence used in audit messages, e.g. 'Project notification override'. */
const overrideLabel = (row: { level: string; target: string }) =>
  row.level === 'default' ? 'Default notification levels' : `${row.level === 'project' ? 'Project' : 'Organization'} notification override (${row.target})`

const toView = (s: Omit<SubscriptionView, 'level'> & { level: string }): SubscriptionView => ({
  id: s.id,
  level: s.level as SubscriptionLevel,
  target: s.target,
  alerts: s.alerts,
  deviations: s.deviations,
  channelId: s.channelId,
  notifyResolved: s.notifyResolved,
  repeatMinutes: s.repeatMinutes,
})

/** What an update changed, for the audit record, e.g. "notify when resolved off, repeat every 4 hours". */
function followUpChanges(before: { notifyResolved: boolean; repeatMinutes: number } | null, after: { notifyResolved: boolean; repeatMinutes: number }): string {
  const changes: string[] = []
  if (before?.notifyResolved !== after.notifyResolved) changes.push(`notify when resolved ${after.notifyResolved ? 'on' : 'off'}`)
  if (before?.repeatMinutes !== after.repeatMinutes) changes.push(`repeat: ${(REPEAT_LABELS[after.repeatMinutes] ?? `${after.repeatMinutes} min`).toLowerCase()}`)
  return changes.length ? ` (${changes.join(', ')})` : ''
}

/** Accesses to the organizations the user belongs to; one that fails to load is left out. */
async function memberAccesses(actor: UserActor): Promise<OrganizationAccess[]> {
  const ids = await memberOrganizationIds(actor)
  const accesses = await Promise.all(ids.map((id) => getOrganizationAccess(actor, id).catch(() => null)))
  return accesses.filter((a): a is OrganizationAccess => a !== null).sort((a, b) => compareNames(a.organization.name, b.organization.name))
}

/** Projects in tree order (parents before children, siblings by name) with their depth. */
function projectTree<P extends { id: string; name: string; parentId: string | null }>(projects: P[]): (P & { depth: number })[] {
  const ids = new Set(projects.map((p) => p.id))
  const children = new Map<string | null, P[]>()
  for (const p of projects) {
    const parent = p.parentId && ids.has(p.parentId) ? p.parentId : null
    children.set(parent, [...(children.get(parent) ?? []), p])
  }
  const ordered: (P & { depth: number })[] = []
  const walk = (parent: string | null, depth: number) => {
    for (const p of (children.get(parent) ?? []).sort(byName)) {
      ordered.push({ ...p, depth })
      walk(p.id, depth + 1)
    }
  }
  walk(null, 0)
  return ordered
}

/** User/subscriptions: the default row, then each organization and the projects the user can see. */
export async function listSubscriptionTree(actor: Actor): Promise<SubscriptionTree> {
  const user = requireUser(actor)
  const [subscriptions, accesses] = await Promise.all([prisma.subscription.findMany({ where: { userId: user.userId } }), memberAccesses(user)])
  const find = (level: SubscriptionLevel, target: string) => {
    const row = subscriptions.find((s) => s.level === level && s.target === target)
    return row ? toView(row) : null
  }
  const projects = await prisma.project.findMany({
    where: { organizationId: { in: accesses.map((a) => a.organization.id) } },
    select: { id: true, name: true, parentId: true, organizationId: true },
  })
  const channels = await channelOptions(accesses.map((a) => a.organization.id))
  return {
    default: find('default', ''),
    organizations: accesses.map((access) => {
      const visible = projects.filter((p) => p.organizationId === access.organization.id && access.can('project.view', p.id))
      return {
        id: access.organization.id,
        name: access.organization.name,
        subscription: find('organization', access.organization.id),
        channels: channels.get(access.organization.id) ?? [],
        projects: projectTree(visible).map((p) => ({ id: p.id, name: p.name, parentId: p.parentId, depth: p.depth, subscription: find('project', p.id) })),
      }
    }),
  }
}

/**
 * Where a new subscription points: the default level has no target; an organization target must
 * be one of the user's organizations; a project target a project the user can see.
 */
async function resolveTarget(actor: UserActor, level: SubscriptionLevel, target: string): Promise<{ target: string; organizationId: string | null }> {
  if (level === 'default') return { target: '', organizationId: null }
  if (!target) throw invalid('Target is required', [{ path: 'target', message: 'Target is required' }])
  if (level === 'organization') {
    await getOrganizationAccess(actor, target)
    return { target, organizationId: target }
  }
  const project = await prisma.project.findUnique({ where: { id: target }, select: { organizationId: true } })
  if (!project) throw accessDenied()
  const access = await getOrganizationAccess(actor, project.organizationId)
  access.require('project.view', target)
  return { target, organizationId: project.organizationId }
}

/**
 * User/updateSubscription. With no doc the subscription is deleted (override switched off); with a
 * doc and an id its sliders change; with a doc and no id one is created (override switched on),
 * which needs a level and a target (target '' for the default level).
 */
export async function updateSubscription(actor: Actor, raw: unknown): Promise<{ subscription: SubscriptionView | null }> {
  const user = requireUser(actor)
  requireAccountWrite(user)
  const { id, doc } = parseInput(updateSubscriptionInput, raw)
  if (!id && !doc) throw invalid('Nothing to update: give an id, a doc or both')
  const existing = id ? await prisma.subscription.findFirst({ where: { id, userId: user.userId } }) : null
  if (id && !existing) throw notFound('Subscription not found')

  if (existing && !doc) {
    await prisma.$transaction(async (tx) => {
      await tx.subscription.delete({ where: { id: existing.id } })
      await audit(tx, actor, { action: 'subscription.delete', message: `${overrideLabel(existing)} removed` })
    })
    emitChange({ organizationId: null, kind: 'user', userId: user.userId })
    return { subscription: null }
  }

  const sliders = {
    ...(doc?.alerts !== undefined ? { alerts: doc.alerts } : {}),
    ...(doc?.deviations !== undefined ? { deviations: doc.deviations } : {}),
    ...(doc?.notifyResolved !== undefined ? { notifyResolved: doc.notifyResolved } : {}),
    ...(doc?.repeatMinutes !== undefined ? { repeatMinutes: doc.repeatMinutes } : {}),
    ...(doc?.channel !== undefined ? { channelId: await channelFor(existing?.organizationId ?? (doc.level === 'default' ? null : await organizationOfTarget(user, doc.level, doc.target)), doc.channel) } : {}),
  }
  const saved = await (async () => {
    if (existing) {
      return prisma.$transaction(async (tx) => {
        const row = await tx.subscription.update({ where: { id: existing.id }, data: sliders })
        await audit(tx, actor, { action: 'subscription.update', message: `${overrideLabel(row)} updated${followUpChanges(existing, row)}` })
        return row
      })
    }
    // Creation is skipped with a clear error when the level or the target is missing.
    if (!doc?.level) throw invalid('Level is required', [{ path: 'level', message: 'Level is required' }])
    if (doc.target === undefined || (doc.level !== 'default' && !doc.target)) {
      throw invalid('Target is required', [{ path: 'target', message: 'Target is required' }])
    }
    const { target, organizationId } = await resolveTarget(user, doc.level, doc.target)
    const level = doc.level
    return prisma.$transaction(async (tx) => {
      const row = await tx.subscription.upsert({
        where: { userId_level_target: { userId: user.userId, level, target } },
        create: {
          userId: user.userId,
          level,
          target,
          organizationId,
          alerts: sliders.alerts ?? 0,
          deviations: sliders.deviations ?? 0,
          channelId: sliders.channelId ?? null,
          ...(sliders.notifyResolved !== undefined ? { notifyResolved: sliders.notifyResolved } : {}),
          ...(sliders.repeatMinutes !== undefined ? { repeatMinutes: sliders.repeatMinutes } : {}),
        },
        update: sliders,
      })
      await audit(tx, actor, { action: 'subscription.create', message: `${overrideLabel(row)} created${followUpChanges(null, row)}` })
      return row
    })
  })()
  emitChange({ organizationId: null, kind: 'user', userId: user.userId })
  return { subscription: toView(saved) }
}

/** The organization a new subscription's target belongs to (checked again by resolveTarget). */
async function organizationOfTarget(actor: UserActor, level: SubscriptionLevel | undefined, target: string | undefined): Promise<string | null> {
  if (!level || level === 'default' || !target) return null
  return (await resolveTarget(actor, level, target)).organizationId
}

/** A subscription may only post to a channel of its own organization; the default level has none. */
async function channelFor(organizationId: string | null, channel: string | null): Promise<string | null> {
  if (channel === null) return null
  const found = organizationId ? await prisma.notificationChannel.findFirst({ where: { id: channel, organizationId }, select: { id: true } }) : null
  if (!found) throw invalid('Channel not found in this organization', [{ path: 'channel', message: 'Channel not found in this organization' }])
  return found.id
}

/** User/testNotification: a sample e-mail to oneself for an organization (and project) one can see. */
export async function testNotification(actor: Actor, raw: unknown): Promise<{ message: string }> {
  const user = requireUser(actor)
  requireAccountWrite(user)
  const input = parseInput(testNotificationInput, raw)
  const access = await getOrganizationAccess(user, input.organization)
  let projectName: string | null = null
  if (input.project) {
    if (!access.hasProject(input.project)) throw accessDenied()
    access.require('project.view', input.project)
    projectName = (await prisma.project.findUniqueOrThrow({ where: { id: input.project }, select: { name: true } })).name
  }
  await rateLimit(`notificationTest:${user.userId}`, 20, 60 * 60_000)
  const scope = projectName ? `${access.organization.name} / ${projectName}` : access.organization.name
  await sendMail({
    to: user.email,
    kind: 'notificationTest',
    subject: `[Pixelfleet] Test notification for ${scope}`,
    text: `Hello ${user.name},\n\nThis is a test notification for ${scope}. Alerts and deviations that reach your notification levels will be delivered to this address.\n`,
    html: `<p>Hello ${escapeHtml(user.name)},</p><p>This is a test notification for <strong>${escapeHtml(scope)}</strong>. Alerts and deviations that reach your notification levels will be delivered to this address.</p>`,
  })
  return { message: 'Notification sent' }
}
