import { prisma } from '~/utils/db.server'
import { getConfig } from '~/utils/env.server'

export const BUILD_VERSION = '25.03.0'
export const BUILD_NUMBER = '1486'
export const VERSION_TEXT = `${BUILD_VERSION} build ${BUILD_NUMBER}`

/** Site messages whose window contains now (the site-wide banner). */
export async function activeSiteMessages(now = new Date()) {
  return prisma.siteMessage.findMany({
    where: { starts: { lte: now }, ends: { gte: now } },
    orderBy: { starts: 'asc' },
    select: { id: true, text: true, type: true, starts: true, ends: true },
  })
}

/** Instance name: the stored cloud state wins, else INSTANCE_NAME. */
export async function cloudState() {
  const state = await prisma.cloudState.findUnique({ where: { id: 'cloud' } })
  return {
    instanceName: state?.instanceName || getConfig().INSTANCE_NAME,
    revision: state?.revision ?? '',
    deployedAt: state?.deployedAt ?? null,
  }
}
