import { CliError, ExitCode, exitCodeForApiError, notLoggedInError, toCliError } from './errors'

/** A /client/v1 caller for the CLI: JSON in, JSON object out, portal errors as CliError. */
export class ApiClient {
  constructor(
    readonly url: string,
    private readonly token: string | null,
  ) {}

  get isLoggedIn() {
    return this.token !== null
  }

  async call<T = Record<string, unknown>>(name: string, body: object = {}, options: { needsLogin?: boolean } = {}): Promise<T> {
    if ((options.needsLogin ?? true) && !this.token) throw notLoggedInError()
    let response: Response
    try {
      response = await fetch(`${this.url}/client/v1/${name}?time=${Date.now()}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'pixelfleet-cli',
          ...(this.token ? { Authorization: `Bearer ${this.token}` } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      })
    } catch (error) {
      throw toCliError(error, this.url)
    }
    let data: unknown
    try {
      data = await response.json()
    } catch {
      throw new CliError(`Unexpected answer from ${this.url} (HTTP ${response.status}); is this a Pixelfleet portal?`, ExitCode.unexpected, `http/${response.status}`)
    }
    if (!response.ok) {
      const error = data as { code?: string; message?: string; issues?: { path: string; message: string }[] }
      const code = error?.code ?? `http/${response.status}`
      throw new CliError(error?.message ?? response.statusText, exitCodeForApiError(response.status, code), code, error?.issues ?? [])
    }
    if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new CliError('Response is not an object', ExitCode.unexpected, 'API/malformed')
    return data as T
  }
}
