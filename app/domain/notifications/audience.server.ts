import { type Prisma } from '@prisma/client'
import { getOrganizationAccess, type OrganizationAccess } from '../access/access.server'
import { userActor } from '../auth/session.server'
import { prisma } from '~/utils/db.server'
import { inChunks } from '~/utils/id-chunks'

/**
 * What deciding and sending notifications share: delivery states, the issue with its system and
 * agent, the nearest subscription of a project (project, parents, organization, default) and the
 * subscribers' access (checked when queuing and again when sending).
 */

export const STATUS = { pending: 'pending', sending: 'sending', sent: 'sent', skipped: 'skipped', muted: 'muted' } as const

export type SubscriptionRow = { userId: string; level: string; target: string; alerts: number; deviations: number; channelId: string | null }

export const issueInclude = {
  system: {
    select: {
      id: true,
      key: true,
      name: true,
      projectId: true,
      agent: { select: { id: true, clientName: true, organizationId: true } },
    },
  },
} as const

export type IssueWithSystem = Prisma.IssueGetPayload<{ include: typeof issueInclude }>

/** The nearest existing subscription for a project wins: project, its parents, organization, default. */
export function nearestSubscription(subscriptions: SubscriptionRow[], chain: string[], organizationId: string): SubscriptionRow | undefined {
  return (
    chain.map((projectId) => subscriptions.find((s) => s.level === 'project' && s.target === projectId)).find(Boolean) ??
    subscriptions.find((s) => s.level === 'organization' && s.target === organizationId) ??
    subscriptions.find((s) => s.level === 'default')
  )
}

export function thresholdFor(subscriptions: SubscriptionRow[], chain: string[], organizationId: string, kind: string): number {
  const nearest = nearestSubscription(subscriptions, chain, organizationId)
  if (!nearest) return 0
  return kind === 'deviation' ? nearest.deviations : nearest.alerts
}

/** Loads access for each user once per organization; users who lost membership are left out. */
export async function accessesFor(organizationId: string, userIds: string[]): Promise<Map<string, OrganizationAccess>> {
  const users = await inChunks(userIds, (chunk) =>
    prisma.user.findMany({ where: { id: { in: chunk }, disabled: false, isAgent: false }, select: { id: true, email: true, name: true, isAdmin: true } }),
  )
  const accesses = new Map<string, OrganizationAccess>()
  for (const user of users) {
    const access = await getOrganizationAccess(userActor(user, { ip: '', userAgent: '' }), organizationId).catch(() => null)
    if (access) accesses.set(user.id, access)
  }
  return accesses
}

/** Project ids from `projectId` up to the root. */
export function chainOf(parents: Map<string, string | null>, projectId: string): string[] {
  const chain: string[] = []
  for (let id: string | null | undefined = projectId; id && !chain.includes(id); id = parents.get(id)) chain.push(id)
  return chain
}
