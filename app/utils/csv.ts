/**
 * CSV cells for every export (the web agents export and the CLI's `agents list --csv`).
 *
 * Formula injection (OWASP "CSV Injection"): a spreadsheet runs a cell that starts with `=`, `+`,
 * `-`, `@`, a tab or a carriage return as a formula, so a hostile agent name such as
 * `=HYPERLINK(...)` would run on the exporting user's machine. Such cells get a leading single
 * quote, which spreadsheets show as text; then the cell is quoted when it holds a separator, a
 * quote or a line break.
 */
const FORMULA_START = /^[=+\-@\t\r]/

export function csvCell(value: unknown): string {
  let text = value == null ? '' : String(value)
  if (FORMULA_START.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** One CSV line (comma separated, no line ending). */
export const csvLine = (cells: unknown[]) => cells.map(csvCell).join(',')
