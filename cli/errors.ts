/**
 * The one place CLI failures become messages and exit codes, so scripts can trust them:
 *   0 ok · 1 unexpected · 2 usage or invalid input · 3 not logged in / authentication
 *   4 permission denied · 5 not found · 6 network (portal unreachable) · 7 too many attempts
 */
export const ExitCode = { ok: 0, unexpected: 1, usage: 2, auth: 3, permission: 4, notFound: 5, network: 6, rateLimited: 7 } as const
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode]

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCodeValue,
    /** the API's error code when the portal answered with one, e.g. 'enrollment/invalid-code' */
    readonly code: string = 'cli/error',
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(message)
    this.name = 'CliError'
  }
}

export const usageError = (message: string) => new CliError(message, ExitCode.usage, 'cli/usage')
/** Something named on the command line does not exist (exit 5, like the portal's 404). */
export const notFoundError = (message: string) => new CliError(message, ExitCode.notFound, 'not-found')
export const notLoggedInError = () => new CliError('Not logged in. Run `pixelfleet login` first.', ExitCode.auth, 'mvr-auth/notloggedin')

/** Exit code for an error body of /client/v1 ({ code, message }) with its HTTP status. */
export function exitCodeForApiError(status: number, code: string): ExitCodeValue {
  if (status === 401 || code.startsWith('mvr-auth/') || code.startsWith('auth/') || code === 'unauthenticated') return ExitCode.auth
  if (status === 403) return ExitCode.permission
  if (status === 404) return ExitCode.notFound
  if (status === 429) return ExitCode.rateLimited
  if (status === 400 || status === 409 || status === 422) return ExitCode.usage
  return ExitCode.unexpected
}

/** The network failure behind fetch's generic 'fetch failed'. */
function networkMessage(error: Error, url: string): string | null {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  if (error.name === 'TypeError' && error.message === 'fetch failed') {
    const reason = cause?.code === 'ECONNREFUSED' ? 'connection refused' : cause?.code === 'ENOTFOUND' ? 'unknown host' : (cause?.message ?? 'network error')
    return `Cannot reach the portal at ${url}: ${reason}`
  }
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return `The portal at ${url} did not answer in time`
  return null
}

export function toCliError(error: unknown, url = ''): CliError {
  if (error instanceof CliError) return error
  if (error instanceof Error) {
    const network = networkMessage(error, url)
    if (network) return new CliError(network, ExitCode.network, 'cli/network')
    return new CliError(error.message, ExitCode.unexpected, 'cli/unexpected')
  }
  return new CliError(String(error), ExitCode.unexpected, 'cli/unexpected')
}

/** What --json prints for a failure (pure, so tests and scripts see one shape). */
export const errorJson = (error: CliError) => ({
  error: { code: error.code, message: error.message, exitCode: error.exitCode, ...(error.issues.length ? { issues: error.issues } : {}) },
})

/** Prints the failure to stderr and returns its exit code. */
export function reportError(error: unknown, options: { json: boolean }): ExitCodeValue {
  const cliError = toCliError(error)
  if (options.json) process.stderr.write(JSON.stringify(errorJson(cliError)) + '\n')
  else {
    const details = cliError.issues.filter((i) => i.path && i.message !== cliError.message)
    process.stderr.write(`Error: ${cliError.message}\n${details.map((i) => `  ${i.path}: ${i.message}\n`).join('')}`)
  }
  return cliError.exitCode
}
