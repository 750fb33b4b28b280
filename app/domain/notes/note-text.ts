/** A short, single-line excerpt of a note for audit messages and tables (shared by server and UI). */
export function noteExcerpt(content: string, length = 60): string {
  const line = content.replace(/\s+/g, ' ').trim()
  if (!line) return '(empty note)'
  return line.length > length ? `${line.slice(0, length - 1)}…` : line
}
