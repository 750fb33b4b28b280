/**
 * The process's log (pino): JSON lines with time, level and node id whenever stdout is not a
 * terminal or LOG_FORMAT=json; readable lines (pino-pretty) in a terminal. Modules keep receiving
 * `{ info, warn }` objects (componentLogger); an optional second argument adds fields such as
 * `agentId` or `requestId`.
 *
 * A fault that repeats the same line thousands of times a second must not flood the log: the first
 * occurrence of a line is written, identical ones within the next REPEAT_WINDOW_MS are counted, and
 * one summary line says how often it repeated (docs/decisions/026-structured-logs.md).
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { createRequire } from 'node:module'
import { format } from 'node:util'
import pino, { type Logger as Pino } from 'pino'
import type PinoPretty from 'pino-pretty'

/** Loaded only for a terminal: servers, tests and CLI calls with piped output never pay its ~70 ms. */
const loadPinoPretty = () => createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'
export type LogFields = Record<string, unknown>
export type ComponentLogger = {
  debug: (message: string, fields?: LogFields) => void
  info: (message: string, fields?: LogFields) => void
  warn: (message: string, fields?: LogFields) => void
  error: (message: string, fields?: LogFields) => void
}

export const REPEAT_WINDOW_MS = 60_000
/** Distinct lines tracked for repeats at once; beyond it the oldest are summarised early. */
const MAX_TRACKED = 1000

export type LoggingOptions = { level?: LogLevel; format?: 'json' | 'pretty' | 'auto'; nodeId?: string; destination?: pino.DestinationStream }

let root: Pino = createRoot({})

function createRoot(options: LoggingOptions): Pino {
  const level = options.level ?? 'info'
  const pretty = options.format === 'pretty' || (options.format !== 'json' && !options.destination && process.stdout.isTTY === true)
  const destination = options.destination ?? (pretty ? loadPinoPretty()({ sync: true, colorize: true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,node' }) : pino.destination({ sync: true }))
  return pino(
    {
      level,
      base: options.nodeId ? { node: options.nodeId } : { node: undefined },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  )
}

/** Reconfigures the process's log (start: LOG_LEVEL, LOG_FORMAT, NODE_ID). */
export function configureLogging(options: LoggingOptions) {
  flushRepeats()
  root = createRoot(options)
}

const context = new AsyncLocalStorage<LogFields>()

/** Runs `fn` with `fields` added to every line logged within it (a request's id). */
export function withLogFields<T>(fields: LogFields, fn: () => T): T {
  return context.run({ ...context.getStore(), ...fields }, fn)
}

type Repeat = { level: Exclude<LogLevel, 'silent'>; message: string; fields?: LogFields; count: number; since: number; timer: NodeJS.Timeout }
const repeats = new Map<string, Repeat>()

function summarise(key: string, entry: Repeat, reschedule: boolean) {
  const seconds = Math.max(1, Math.round((Date.now() - entry.since) / 1000))
  if (entry.count > 0) {
    root[entry.level]({ ...entry.fields, repeated: entry.count, seconds }, `${entry.message} ... repeated ${entry.count.toLocaleString('en-US')} times in ${seconds} s`)
  }
  if (reschedule && entry.count > 0) {
    // still repeating: keep counting in a new window
    entry.count = 0
    entry.since = Date.now()
    entry.timer = setTimeout(() => summarise(key, entry, true), REPEAT_WINDOW_MS)
    entry.timer.unref()
  } else {
    clearTimeout(entry.timer)
    repeats.delete(key)
  }
}

/** Writes every pending repeat summary now (shutdown, reconfiguration). */
export function flushRepeats() {
  for (const [key, entry] of [...repeats]) summarise(key, entry, false)
}

function write(level: Exclude<LogLevel, 'silent'>, component: string, message: string, fields?: LogFields) {
  if (!root.isLevelEnabled(level)) return
  const key = `${level}\u0000${component}\u0000${message}`
  const seen = repeats.get(key)
  if (seen) {
    seen.count++
    return
  }
  if (repeats.size >= MAX_TRACKED) {
    const [oldestKey, oldest] = repeats.entries().next().value as [string, Repeat]
    summarise(oldestKey, oldest, false)
  }
  const scoped = context.getStore()
  const all = scoped || component ? { ...scoped, ...fields, ...(component ? { component } : {}) } : fields
  const entry: Repeat = { level, message, fields: all, count: 0, since: Date.now(), timer: setTimeout(() => summarise(key, entry, true), REPEAT_WINDOW_MS) }
  entry.timer.unref()
  repeats.set(key, entry)
  root[level](entry.fields ?? {}, message)
}

/** A module's logger; `component` names it in every line (broker, relay, ingest, http, ...). */
export function componentLogger(component = ''): ComponentLogger {
  return {
    debug: (message, fields) => write('debug', component, message, fields),
    info: (message, fields) => write('info', component, message, fields),
    warn: (message, fields) => write('warn', component, message, fields),
    error: (message, fields) => write('error', component, message, fields),
  }
}

/**
 * A line written whatever LOG_LEVEL says (at info): the start's ready line, which supervisors,
 * tests and benches wait for and read the bound ports from.
 */
export function announce(component: string, message: string, fields?: LogFields) {
  root.child({ component }, { level: 'info' }).info(fields ?? {}, message)
}

/**
 * console.log/info/warn/error of the whole process go through the log too (code that predates it,
 * libraries), so stdout carries JSON lines only. debug stays console.debug's own.
 */
export function routeConsoleToLog() {
  const log = componentLogger()
  console.log = (...args: unknown[]) => log.info(format(...args))
  console.info = (...args: unknown[]) => log.info(format(...args))
  console.warn = (...args: unknown[]) => log.warn(format(...args))
  console.error = (...args: unknown[]) => log.error(format(...args))
}
