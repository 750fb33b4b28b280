import { type ProjectWindow } from '@prisma/client'
import { z } from 'zod'
import { type Actor, actorLabel } from '../actor'
import { getOrganizationAccess } from '../access/access.server'
import { SEVERITY } from '../agents/derived'
import { audit } from '../audit/audit.server'
import { accessDenied, notFound } from '../errors'
import { emitChange } from '../events/bus.server'
import { parseInput } from '../parse-input'
import { formatInZone, instantToLocal, isTimeZone, localToInstant, nextOccurrence, occurrenceAt } from './window-time.server'
import { describeWeekly, WINDOW_KINDS, WINDOW_MAX_MS, type WindowKind, type WindowSpec } from './windows'
import { prisma } from '~/utils/db.server'

/**
 * Show and maintenance windows of a project (they apply to its sub-projects too). Managing them
 * needs project.update on the project; seeing them project.view. Every window ends: a one-off
 * lasts at most 7 days, a weekly one less than a day per occurrence.
 */

export const SHOW_SEVERITIES = [SEVERITY.critical, SEVERITY.error, SEVERITY.warning, SEVERITY.notice] as const
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/

const base = {
  kind: z.enum(WINDOW_KINDS, { errorMap: () => ({ message: 'Choose maintenance or show' }) }),
  name: z.string().trim().max(100, 'Name must be at most 100 characters').default(''),
  severities: z.array(z.number().int().refine((s) => (SHOW_SEVERITIES as readonly number[]).includes(s), 'Unknown severity')).max(4).default([]),
}
/** An ISO instant, or a local "YYYY-MM-DDTHH:MM" read in the window's time zone (the form sends those). */
const when = (label: string) => z.union([z.date(), z.string().trim().min(1)], { errorMap: () => ({ message: `${label} is required` }) })

/** One schema for create and update: a one-off (startsAt, endsAt) or weekly (weekdays, times, zone). */
export const windowInput = z
  .discriminatedUnion('recurrence', [
    z
      .object({ ...base, recurrence: z.literal('once'), startsAt: when('Start'), endsAt: when('End'), timeZone: z.string().refine(isTimeZone, 'Unknown time zone').default('UTC') })
      .strict(),
    z
      .object({
        ...base,
        recurrence: z.literal('weekly'),
        weekdays: z.array(z.number().int().min(0).max(6)).min(1, 'Choose at least one weekday').max(7),
        startTime: z.string().regex(HHMM, 'Start time must be HH:MM'),
        endTime: z.string().regex(HHMM, 'End time must be HH:MM'),
        timeZone: z.string().refine(isTimeZone, 'Unknown time zone'),
      })
      .strict(),
  ])
  .transform((w, ctx) => {
    if (w.recurrence !== 'once') return w
    const resolve = (value: Date | string, path: 'startsAt' | 'endsAt', label: string) => {
      const instant = typeof value === 'string' ? (localToInstant(value, w.timeZone) ?? new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : NaN)) : value
      if (Number.isNaN(instant.getTime())) ctx.addIssue({ code: 'custom', path: [path], message: `${label} must be a date and time` })
      return instant
    }
    return { ...w, startsAt: resolve(w.startsAt, 'startsAt', 'Start'), endsAt: resolve(w.endsAt, 'endsAt', 'End') }
  })
  .superRefine((w, ctx) => {
    if (w.recurrence === 'once' && (Number.isNaN(w.startsAt.getTime()) || Number.isNaN(w.endsAt.getTime()))) return
    if (w.kind === 'show' && w.severities.length === 0) ctx.addIssue({ code: 'custom', path: ['severities'], message: 'Choose the severities that notify at once' })
    if (w.recurrence === 'once') {
      if (w.endsAt.getTime() <= w.startsAt.getTime()) ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'The end must be after the start' })
      else if (w.endsAt.getTime() - w.startsAt.getTime() > WINDOW_MAX_MS) ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'A window lasts at most 7 days' })
    } else if (w.startTime === w.endTime) {
      ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'The end time must differ from the start time' })
    }
  })
export type WindowInput = z.output<typeof windowInput>

export function specOf(w: Pick<ProjectWindow, 'recurrence' | 'startsAt' | 'endsAt' | 'weekdays' | 'startTime' | 'endTime' | 'timeZone'>): WindowSpec {
  if (w.recurrence === 'once') return { recurrence: 'once', startsAt: w.startsAt!, endsAt: w.endsAt! }
  return { recurrence: 'weekly', weekdays: JSON.parse(w.weekdays) as number[], startTime: w.startTime, endTime: w.endTime, timeZone: w.timeZone }
}

const json = (value: number[]) => JSON.stringify([...new Set(value)].sort())

function rowData(input: WindowInput) {
  const common = { kind: input.kind, name: input.name, recurrence: input.recurrence, severities: input.kind === 'show' ? json(input.severities) : '[]' }
  // A one-off window keeps the zone it was entered in, for showing its times.
  if (input.recurrence === 'once') return { ...common, startsAt: input.startsAt, endsAt: input.endsAt, weekdays: '[]', startTime: '', endTime: '', timeZone: input.timeZone }
  return { ...common, startsAt: null, endsAt: null, weekdays: json(input.weekdays), startTime: input.startTime, endTime: input.endTime, timeZone: input.timeZone }
}

export const kindLabel = (kind: string) => (kind === 'show' ? 'Show window' : 'Maintenance window')

function describe(w: ProjectWindow): string {
  const when =
    w.recurrence === 'once'
      ? `${instantToLocal(w.startsAt!, w.timeZone).replace('T', ' ')} - ${instantToLocal(w.endsAt!, w.timeZone).replace('T', ' ')} ${w.timeZone}`
      : `every ${describeWeekly(JSON.parse(w.weekdays) as number[], w.startTime, w.endTime)} ${w.timeZone}`
  return `${kindLabel(w.kind).toLowerCase()}${w.name ? ` '${w.name}'` : ''} (${when})`
}

/** A window row for screens and the API, with what is in progress now and what comes next. */
function present(w: ProjectWindow, now: Date) {
  const spec = specOf(w)
  const current = occurrenceAt(spec, now)
  const next = nextOccurrence(spec, now)
  return {
    id: w.id,
    projectId: w.projectId,
    kind: w.kind as WindowKind,
    name: w.name,
    recurrence: w.recurrence as 'once' | 'weekly',
    startsAt: w.startsAt?.toISOString() ?? null,
    endsAt: w.endsAt?.toISOString() ?? null,
    weekdays: JSON.parse(w.weekdays) as number[],
    startTime: w.startTime,
    endTime: w.endTime,
    timeZone: w.timeZone,
    severities: JSON.parse(w.severities) as number[],
    createdBy: w.createdBy,
    activeUntil: current?.end.toISOString() ?? null,
    next: next ? { start: next.start.toISOString(), end: next.end.toISOString(), startText: formatInZone(next.start, w.timeZone), endText: formatInZone(next.end, w.timeZone) } : null,
    /** a one-off window's times on its own clock: as text, and as local values for the form */
    startsText: w.startsAt ? formatInZone(w.startsAt, w.timeZone) : null,
    endsText: w.endsAt ? formatInZone(w.endsAt, w.timeZone) : null,
    startsLocal: w.startsAt ? instantToLocal(w.startsAt, w.timeZone) : null,
    endsLocal: w.endsAt ? instantToLocal(w.endsAt, w.timeZone) : null,
  }
}
export type WindowView = ReturnType<typeof present>

async function projectAccess(actor: Actor, organizationId: string, projectId: string, permission: 'project.view' | 'project.update') {
  const access = await getOrganizationAccess(actor, organizationId)
  if (!access.hasProject(projectId)) throw accessDenied()
  access.require(permission, projectId)
  return access
}

/** The project's own windows plus the ones inherited from parent projects (read-only here). */
export async function listWindows(actor: Actor, organizationId: string, projectId: string, now = new Date()) {
  const access = await projectAccess(actor, organizationId, projectId, 'project.view')
  const chain = access.projectChain(projectId)
  const rows = await prisma.projectWindow.findMany({ where: { organizationId, projectId: { in: chain } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })
  return {
    windows: rows.map((w) => ({ ...present(w, now), inherited: w.projectId !== projectId })),
    canManage: access.can('project.update', projectId),
  }
}

/** Windows in progress for a project (its own and its parents'): the banner of the project pages. */
export async function activeWindows(actor: Actor, organizationId: string, projectId: string, now = new Date()) {
  const { windows } = await listWindows(actor, organizationId, projectId, now)
  const active = windows
    .filter((w) => w.activeUntil)
    .map((w) => ({ id: w.id, kind: w.kind, name: w.name, until: w.activeUntil!, untilText: formatIn(new Date(w.activeUntil!), w.timeZone, now), timeZone: w.timeZone }))
  // when the banner next changes (a window ends or the next one starts), so an open page can reload it then
  const changes = windows.map((w) => w.activeUntil ?? w.next?.start).filter((t): t is string => Boolean(t))
  return Object.assign(active, { changesAt: changes.length ? changes.reduce((a, b) => (a < b ? a : b)) : null })
}

/** "23:00" when the end is within a day, else "Sat 25 Oct 03:00", on the window's own clock (the same text on server and browser). */
function formatIn(instant: Date, timeZone: string, now: Date): string {
  const soon = instant.getTime() - now.getTime() < 86_400_000
  const options: Intl.DateTimeFormatOptions = soon ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } : { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }
  return new Intl.DateTimeFormat('en-GB', { ...options, timeZone }).format(instant)
}

export async function createWindow(actor: Actor, organizationId: string, projectId: string, raw: unknown) {
  await projectAccess(actor, organizationId, projectId, 'project.update')
  const input = parseInput(windowInput, raw)
  const row = await prisma.$transaction(async (tx) => {
    const created = await tx.projectWindow.create({ data: { organizationId, projectId, ...rowData(input), createdBy: actorLabel(actor) } })
    await audit(tx, actor, { organizationId, projectId, action: 'project.window.create', message: `Created ${describe(created)}` })
    return created
  })
  emitChange({ organizationId, kind: 'project', ids: [projectId] })
  return { window: present(row, new Date()) }
}

async function ownWindow(organizationId: string, windowId: string) {
  const row = await prisma.projectWindow.findFirst({ where: { id: windowId, organizationId } })
  if (!row) throw notFound('Window not found')
  return row
}

export async function updateWindow(actor: Actor, organizationId: string, windowId: string, raw: unknown) {
  await getOrganizationAccess(actor, organizationId) // non-members are refused before a window id is looked up
  const existing = await ownWindow(organizationId, windowId)
  await projectAccess(actor, organizationId, existing.projectId, 'project.update')
  const input = parseInput(windowInput, raw)
  const row = await prisma.$transaction(async (tx) => {
    const updated = await tx.projectWindow.update({ where: { id: windowId }, data: rowData(input) })
    await audit(tx, actor, { organizationId, projectId: existing.projectId, action: 'project.window.update', message: `Changed ${describe(existing)} to ${describe(updated)}` })
    return updated
  })
  emitChange({ organizationId, kind: 'project', ids: [existing.projectId] })
  return { window: present(row, new Date()) }
}

export async function deleteWindow(actor: Actor, organizationId: string, windowId: string) {
  await getOrganizationAccess(actor, organizationId) // non-members are refused before a window id is looked up
  const existing = await ownWindow(organizationId, windowId)
  await projectAccess(actor, organizationId, existing.projectId, 'project.update')
  await prisma.$transaction(async (tx) => {
    await tx.projectWindow.delete({ where: { id: windowId } })
    await audit(tx, actor, { organizationId, projectId: existing.projectId, action: 'project.window.delete', message: `Deleted ${describe(existing)}` })
  })
  emitChange({ organizationId, kind: 'project', ids: [existing.projectId] })
  return { deleted: windowId }
}

// ------------------------------------------------------------------------ notification policy

export type NotifyMode = 'muted' | 'urgent' | 'normal'

/**
 * What the organization's windows say about notifying now, per project (a window of a parent
 * project covers its sub-projects): maintenance mutes everything; a show window sends the chosen
 * severities at once. Maintenance wins when both are in progress.
 */
export async function windowPolicy(organizationId: string, now = new Date()) {
  const [rows, projects] = await Promise.all([
    prisma.projectWindow.findMany({ where: { organizationId } }),
    prisma.project.findMany({ where: { organizationId }, select: { id: true, parentId: true } }),
  ])
  const active = rows.filter((w) => occurrenceAt(specOf(w), now))
  const parents = new Map(projects.map((p) => [p.id, p.parentId]))
  const chainOf = (projectId: string) => {
    const chain: string[] = []
    for (let id: string | null | undefined = projectId; id && !chain.includes(id); id = parents.get(id)) chain.push(id)
    return chain
  }
  return {
    any: active.length > 0,
    modeFor(projectId: string | null, severity: number): NotifyMode {
      if (!projectId || active.length === 0) return 'normal'
      const covering = active.filter((w) => chainOf(projectId).includes(w.projectId))
      if (covering.some((w) => w.kind === 'maintenance')) return 'muted'
      if (covering.some((w) => w.kind === 'show' && (JSON.parse(w.severities) as number[]).includes(severity))) return 'urgent'
      return 'normal'
    },
  }
}
