import { type z } from 'zod'
import { fromZodIssues } from './errors'

/** Parses domain input with zod; problems become a DomainError with per-field issues. */
export function parseInput<S extends z.ZodTypeAny>(schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw)
  if (!parsed.success) throw fromZodIssues(parsed.error.issues)
  return parsed.data
}
