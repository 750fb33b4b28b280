import { type Command } from 'commander'
import { z } from 'zod'
import { type alarmsOutputs } from '../../app/api/outputs/alarms'
import { SEVERITY, type SeverityName } from '../../app/domain/agents/derived'
import { WEEKDAY_NAMES, WINDOW_KINDS } from '../../app/domain/alarms/windows'
import { orgOption, resolveOrg, resolveProject, withContext, type CliContext } from '../context'
import { notFoundError, usageError } from '../errors'
import { printDone, printRows } from '../output'

type WindowList = z.infer<(typeof alarmsOutputs)['project/windowList']>
type WindowRow = WindowList['windows'][number]

/** Severities a show window can let through at once (the web form offers the same four). */
const SHOW_SEVERITY_NAMES = ['critical', 'error', 'warning', 'notice'] as const satisfies readonly SeverityName[]

/** `--weekdays mon,fri` or `1,5` (0 = Sunday) as day numbers (pure). */
export function parseWeekdays(text: string): number[] {
  const days = text
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean)
    .map((part) => {
      const byName = WEEKDAY_NAMES.findIndex((name) => name.toLowerCase() === part.slice(0, 3) && part.length >= 3)
      if (byName >= 0) return byName
      if (/^[0-6]$/.test(part)) return Number(part)
      throw usageError(`--weekdays takes day names (${WEEKDAY_NAMES.join(',')}) or numbers 0-6, not '${part}'`)
    })
  if (days.length === 0) throw usageError('--weekdays needs at least one day')
  return [...new Set(days)].sort()
}

/** `--severities critical,error` as severity numbers (pure). */
export function parseShowSeverities(text: string): number[] {
  return text
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean)
    .map((part) => {
      const name = SHOW_SEVERITY_NAMES.find((n) => n === part)
      if (!name) throw usageError(`--severities takes ${SHOW_SEVERITY_NAMES.join(', ')}, not '${part}'`)
      return SEVERITY[name]
    })
}

const windowOptions = z.object({
  org: orgOption,
  kind: z.enum(WINDOW_KINDS, { errorMap: () => ({ message: `--kind must be ${WINDOW_KINDS.join(' or ')}` }) }).optional(),
  name: z.string().optional(),
  starts: z.string().optional(),
  ends: z.string().optional(),
  recurrence: z.enum(['once', 'weekly'], { errorMap: () => ({ message: '--recurrence must be once or weekly' }) }).optional(),
  weekdays: z.string().optional(),
  startTime: z.string().optional(),
  endTime: z.string().optional(),
  timeZone: z.string().optional(),
  severities: z.string().optional(),
})
type WindowOptions = z.output<typeof windowOptions>

/**
 * The window as project/windowCreate and project/windowUpdate take it (pure): the options over
 * `base` (the window being changed). What is still missing or wrong the portal names (exit 2).
 */
export function windowBody(o: WindowOptions, base?: WindowRow) {
  if ((o.starts || o.ends) && (o.weekdays || o.startTime || o.endTime)) throw usageError('Give --starts/--ends (once) or --weekdays/--start-time/--end-time (weekly), not both')
  const recurrence = o.recurrence ?? (o.weekdays || o.startTime || o.endTime ? 'weekly' : o.starts || o.ends ? 'once' : (base?.recurrence ?? 'once'))
  const kind = o.kind ?? base?.kind ?? 'maintenance'
  const common = {
    kind,
    name: o.name ?? base?.name ?? '',
    severities: kind === 'show' ? (o.severities !== undefined ? parseShowSeverities(o.severities) : (base?.severities ?? [])) : [],
  }
  const sameRecurrence = base?.recurrence === recurrence ? base : undefined
  if (recurrence === 'once') {
    return { ...common, recurrence, startsAt: o.starts ?? sameRecurrence?.startsAt ?? undefined, endsAt: o.ends ?? sameRecurrence?.endsAt ?? undefined, timeZone: o.timeZone ?? base?.timeZone ?? 'UTC' }
  }
  return {
    ...common,
    recurrence,
    weekdays: o.weekdays !== undefined ? parseWeekdays(o.weekdays) : (sameRecurrence?.weekdays ?? []),
    startTime: o.startTime ?? sameRecurrence?.startTime ?? '',
    endTime: o.endTime ?? sameRecurrence?.endTime ?? '',
    timeZone: o.timeZone ?? base?.timeZone ?? '',
  }
}

const when = (w: WindowRow) =>
  w.recurrence === 'once' ? `${w.startsAt ?? ''} - ${w.endsAt ?? ''}` : `${w.weekdays.map((d) => WEEKDAY_NAMES[d]).join(',')} ${w.startTime}-${w.endTime}`

async function projectWindows(ctx: CliContext, org: string, project: string) {
  const organizationId = await resolveOrg(ctx, org)
  const projectId = await resolveProject(ctx, organizationId, project)
  return { organizationId, projectId, list: await ctx.client.call<WindowList>('project/windowList', { organizationId, projectId }) }
}

/** Options shared by create and update. */
function windowFlags(command: Command) {
  return command
    .option('--kind <kind>', `${WINDOW_KINDS.join('|')} (create: default maintenance)`)
    .option('--name <name>', 'a name shown with the window')
    .option('--starts <time>', 'once: start, ISO 8601 or local YYYY-MM-DDTHH:MM in --time-zone')
    .option('--ends <time>', 'once: end (at most 7 days after the start)')
    .option('--recurrence <r>', 'once|weekly (default: from the other options)')
    .option('--weekdays <days>', 'weekly: mon,tue,... or 0-6 (0 = Sunday)')
    .option('--start-time <HH:MM>', 'weekly: start time')
    .option('--end-time <HH:MM>', 'weekly: end time (before the start: ends the next day)')
    .option('--time-zone <zone>', 'IANA zone, e.g. Europe/Berlin (once: default UTC)')
    .option('--severities <list>', `show windows: severities that notify at once (${SHOW_SEVERITY_NAMES.join(',')})`)
}

/** `pixelfleet windows ...` (project/window* calls): show and maintenance windows of a project. */
export function registerWindowsCommands(program: Command) {
  const windows = program.command('windows').description('show and maintenance windows of a project')

  windows
    .command('list')
    .description("the project's windows, including those inherited from parent projects")
    .requiredOption('--org <id|name>', 'organization')
    .requiredOption('--project <id|name>', 'project')
    .action(
      withContext(z.object({ org: orgOption, project: z.string() }), async (ctx, o) => {
        const { organizationId, projectId, list } = await projectWindows(ctx, o.org, o.project)
        printRows(ctx, { organizationId, projectId, ...list }, list.windows, [
          ['id', (w) => w.id],
          ['kind', (w) => w.kind],
          ['name', (w) => w.name],
          ['recurrence', (w) => w.recurrence],
          ['when', when],
          ['timeZone', (w) => w.timeZone],
          ['severities', (w) => w.severities.join(',')],
          ['activeUntil', (w) => w.activeUntil ?? ''],
          ['inherited', (w) => (w.inherited ? 'yes' : '')],
        ], 'No windows.')
      }),
    )

  windowFlags(
    windows
      .command('create')
      .description('add a window: once (--starts/--ends) or weekly (--weekdays/--start-time/--end-time/--time-zone)')
      .requiredOption('--org <id|name>', 'organization')
      .requiredOption('--project <id|name>', 'project'),
  ).action(
    withContext(windowOptions.extend({ project: z.string() }), async (ctx, o) => {
      const window = windowBody(o)
      const organizationId = await resolveOrg(ctx, o.org)
      const projectId = await resolveProject(ctx, organizationId, o.project)
      const result = await ctx.client.call<{ window: WindowRow }>('project/windowCreate', { organizationId, projectId, window })
      printDone(ctx, result, `Created ${result.window.kind} window ${result.window.id}`)
    }),
  )

  windowFlags(
    windows
      .command('update')
      .description('change a window of the project; options not given keep their values')
      .argument('<windowId>', 'window id')
      .requiredOption('--org <id|name>', 'organization')
      .requiredOption('--project <id|name>', 'the project the window belongs to'),
  ).action(
    withContext(windowOptions.extend({ project: z.string() }), async (ctx, o, [windowId]) => {
      const { organizationId, list } = await projectWindows(ctx, o.org, o.project)
      const current = list.windows.find((w) => w.id === windowId && !w.inherited)
      if (!current) throw notFoundError(`No window ${windowId} in project ${o.project} (an inherited window is changed in its own project)`)
      const result = await ctx.client.call<{ window: WindowRow }>('project/windowUpdate', { organizationId, windowId, window: windowBody(o, current) })
      printDone(ctx, result, `Updated window ${windowId}`)
    }),
  )

  windows
    .command('delete')
    .description('delete a window')
    .argument('<windowId>', 'window id')
    .requiredOption('--org <id|name>', 'organization')
    .action(
      withContext(z.object({ org: orgOption }), async (ctx, o, [windowId]) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const result = await ctx.client.call<{ deleted: string }>('project/windowDelete', { organizationId, windowId })
        printDone(ctx, result, `Deleted window ${windowId}`)
      }),
    )
}
