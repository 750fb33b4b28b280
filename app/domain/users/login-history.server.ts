import { UAParser } from 'ua-parser-js'
import { type Actor } from '../actor'
import { notLoggedIn } from '../errors'
import { prisma } from '~/utils/db.server'

/** "Chrome 126 on Windows 10", or the raw agent when it cannot be parsed. */
export function describeDevice(userAgent: string): string {
  if (!userAgent) return 'Unknown device'
  const { browser, os, device } = new UAParser(userAgent).getResult()
  const browserText = [browser.name, browser.version?.split('.')[0]].filter(Boolean).join(' ')
  const osText = [os.name, os.version].filter(Boolean).join(' ')
  const deviceText = [device.vendor, device.model].filter(Boolean).join(' ')
  const text = [browserText, osText && `on ${osText}`, deviceText && `(${deviceText})`].filter(Boolean).join(' ')
  return text || userAgent.slice(0, 80)
}

/** User settings, Activity: the signed-in user's own sign-ins, newest first. */
export async function listLoginHistory(actor: Actor, limit = 100) {
  if (actor.kind !== 'user') throw notLoggedIn()
  const events = await prisma.loginEvent.findMany({ where: { userId: actor.userId }, orderBy: { timeStamp: 'desc' }, take: limit })
  return events.map((e) => ({ id: e.id, timeStamp: e.timeStamp, device: describeDevice(e.userAgent), ip: e.ip, method: e.method }))
}
