import { timeAgo } from '../app/utils/format-time'
import { csvLine } from '../app/utils/csv'

/** How results are printed: `--output table|csv|json` (`--json` is `--output json`). */
export const OUTPUT_FORMATS = ['table', 'csv', 'json'] as const
export type OutputFormat = (typeof OUTPUT_FORMATS)[number]

/** What printing needs of a command's context (cli/context.ts's CliContext has both). */
type Printable = { json: boolean; format?: OutputFormat }
const formatOf = (ctx: Printable): OutputFormat => ctx.format ?? (ctx.json ? 'json' : 'table')

/** Prints a command's result: its JSON form with --json, else the human text. */
export function emit(ctx: Printable, json: unknown, human: () => string) {
  process.stdout.write(formatOf(ctx) === 'json' ? JSON.stringify(json, null, 2) + '\n' : human() + '\n')
}

/** A column of a printed list: its header and how a row shows in it. */
export type Column<T> = [header: string, value: (row: T) => unknown]

const cellText = (value: unknown): string => {
  if (value === null || value === undefined) return ''
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/** CSV text of rows (pure): formula-safe cells (app/utils/csv.ts), CRLF line ends as spreadsheets expect. */
export function rowsCsv<T>(rows: T[], columns: Column<T>[]): string {
  const lines = [csvLine(columns.map(([header]) => header)), ...rows.map((row) => csvLine(columns.map(([, value]) => cellText(value(row)))))]
  return lines.join('\r\n') + '\r\n'
}

/**
 * A list in the chosen format: `json` as given (the stable document scripts read), `csv` one line per
 * row, `table` aligned and cut to the terminal's width.
 */
export function printRows<T>(ctx: Printable, json: unknown, rows: T[], columns: Column<T>[], empty = 'Nothing to show.') {
  const format = formatOf(ctx)
  if (format === 'json') return void process.stdout.write(JSON.stringify(json, null, 2) + '\n')
  if (format === 'csv') return void process.stdout.write(rowsCsv(rows, columns))
  if (rows.length === 0) return void process.stdout.write(empty + '\n')
  const text = formatTable(
    columns.map(([header]) => header.toUpperCase()),
    rows.map((row) => columns.map(([, value]) => cellText(value(row)).replace(/\s+/g, ' '))),
    terminalWidth(),
  )
  process.stdout.write(text + '\n')
}

/** One object (show, create): `key  value` lines as a table, one header and one row as CSV. */
export function printRecord(ctx: Printable, json: object, fields: [label: string, value: unknown][] = Object.entries(json)) {
  const format = formatOf(ctx)
  if (format === 'json') return void process.stdout.write(JSON.stringify(json, null, 2) + '\n')
  if (format === 'csv') return void process.stdout.write(csvLine(fields.map(([label]) => label)) + '\r\n' + csvLine(fields.map(([, v]) => cellText(v))) + '\r\n')
  const width = Math.max(...fields.map(([label]) => label.length))
  process.stdout.write(fields.map(([label, value]) => `${label.padEnd(width)}  ${cellText(value)}`).join('\n') + '\n')
}

/** A change done: the API's answer as JSON, else one sentence. */
export function printDone(ctx: Printable, json: unknown, message: string) {
  process.stdout.write(formatOf(ctx) === 'json' ? JSON.stringify(json, null, 2) + '\n' : message + '\n')
}

/** The terminal's width when stdout is one; tables written into a pipe or file are never cut. */
const terminalWidth = () => (process.stdout.isTTY && process.stdout.columns ? process.stdout.columns : undefined)

/**
 * A plain left-aligned text table (pure). With `maxWidth` the widest columns are shortened (with …)
 * until a line fits, so a wide table stays readable in a narrow terminal.
 */
export function formatTable(headers: string[], rows: string[][], maxWidth?: number): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  if (maxWidth) {
    const total = () => widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1)
    while (total() > maxWidth) {
      const widest = widths.indexOf(Math.max(...widths))
      if (widths[widest] <= Math.max(6, headers[widest].length)) break
      widths[widest] -= 1
    }
  }
  const fit = (cell: string, width: number) => (cell.length > width ? cell.slice(0, Math.max(0, width - 1)) + '…' : cell)
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? fit(c, widths[i]) : fit(c, widths[i]).padEnd(widths[i])))
      .join('  ')
      .trimEnd()
  return [line(headers), ...rows.map(line)].join('\n')
}

/** Age of an ISO time in the web's own words ('1m 30s ago'), or 'Never' (pure; `now` injectable for tests). */
export function formatAge(iso: string | null, now = Date.now()): string {
  if (!iso) return 'Never'
  return timeAgo(iso, now)
}
