import { describe, expect, it } from 'vitest'
import { type UserActor } from '~/domain/actor'
import { activeSiteMessages } from '~/domain/site/cloud-state.server'
import { clearSiteMessages, createSiteMessage } from '~/domain/site/messages.server'
import { prisma } from '~/utils/db.server'

const actor = (isSiteAdmin: boolean): UserActor => ({ kind: 'user', userId: 'u1', email: 'a@b.io', name: 'A', isSiteAdmin, ip: '', userAgent: '' })
const hour = 3600_000

describe('site messages', () => {
  it('lets only site admins add and clear messages', async () => {
    const input = { text: 'Maintenance', type: 'warning', starts: new Date(), ends: new Date(Date.now() + hour) }
    await expect(createSiteMessage(actor(false), input)).rejects.toMatchObject({ status: 403 })
    await expect(clearSiteMessages(actor(false))).rejects.toMatchObject({ status: 403 })
    expect(await prisma.siteMessage.count()).toBe(0)
    await createSiteMessage(actor(true), input)
    expect(await prisma.siteMessage.count()).toBe(1)
    expect(await prisma.auditRecord.count({ where: { action: 'site.message.create' } })).toBe(1)
    await clearSiteMessages(actor(true))
    expect(await prisma.siteMessage.count()).toBe(0)
  })

  it('rejects empty text, unknown types and inverted ranges with field errors', async () => {
    const now = Date.now()
    await expect(createSiteMessage(actor(true), { text: ' ', type: 'info', starts: new Date(now), ends: new Date(now + hour) })).rejects.toMatchObject({
      issues: [{ path: 'text', message: 'Message text is required' }],
    })
    await expect(createSiteMessage(actor(true), { text: 'x', type: 'loud', starts: new Date(now), ends: new Date(now + hour) })).rejects.toMatchObject({
      issues: [{ path: 'type' }],
    })
    await expect(createSiteMessage(actor(true), { text: 'x', type: 'info', starts: new Date(now + hour), ends: new Date(now) })).rejects.toMatchObject({
      issues: [{ path: 'ends', message: 'The end must be after the start' }],
    })
    expect(await prisma.siteMessage.count()).toBe(0)
  })

  it('shows a message only while now lies between starts and ends', async () => {
    const now = Date.now()
    await createSiteMessage(actor(true), { text: 'past', type: 'info', starts: new Date(now - 2 * hour), ends: new Date(now - hour) })
    await createSiteMessage(actor(true), { text: 'current', type: 'info', starts: new Date(now - hour), ends: new Date(now + hour) })
    await createSiteMessage(actor(true), { text: 'future', type: 'info', starts: new Date(now + hour), ends: new Date(now + 2 * hour) })
    expect((await activeSiteMessages()).map((m) => m.text)).toEqual(['current'])
  })
})
