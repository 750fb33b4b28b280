/** A field-level problem, shown under the field whose name is `path` ('' = a general error). */
export type FieldIssue = { path: string; message: string }

/**
 * The one error type the domain throws. Routes turn it into a page or form error, the JSON API
 * into `{ code, message }` with `status`, the CLI into an exit code.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
    readonly issues: FieldIssue[] = [],
  ) {
    super(message)
    this.name = 'DomainError'
  }
}

export const notFound = (what = 'Not found') => new DomainError('not-found', what, 404)
export const accessDenied = (message = 'You have insufficient access rights to access this page!') =>
  new DomainError('permission-denied', message, 403)
export const notLoggedIn = () => new DomainError('mvr-auth/notloggedin', 'Not logged in', 401)
export const invalid = (message: string, issues: FieldIssue[] = []) =>
  new DomainError('invalid-argument', message, 400, issues)

/** Converts a zod error into a DomainError with per-field issues. */
export function fromZodIssues(issues: { path: (string | number)[]; message: string }[]): DomainError {
  const list = issues.map((i) => ({ path: i.path.join('.'), message: i.message }))
  return invalid(list[0]?.message ?? 'Invalid input', list)
}
