import http from 'node:http'

export type RelayAnswer = { status: number; headers: http.IncomingHttpHeaders; body: string }

/**
 * A minimal HTTP client for session origins in scripts and tests (bench, node tests): connects to
 * `connectTo` (the relay's listening address) whatever the host name resolves to, sends the session
 * origin's host in Host, and keeps the cookies a session origin sets, like one browser would.
 */
export class RelayClient {
  readonly cookies = new Map<string, string>()

  constructor(
    private readonly connectTo: { host: string; port: number },
    private readonly agent?: http.Agent,
  ) {}

  get(address: string, headers: Record<string, string> = {}): Promise<RelayAnswer> {
    const url = new URL(address)
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    return new Promise((resolve, reject) => {
      http
        .get(
          { host: this.connectTo.host, port: this.connectTo.port, path: url.pathname + url.search, agent: this.agent, headers: { host: url.host, ...(cookie ? { cookie } : {}), ...headers } },
          (res) => {
            for (const line of res.headers['set-cookie'] ?? []) {
              const [pair] = line.split(';')
              const eq = pair.indexOf('=')
              this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim())
            }
            const chunks: Buffer[] = []
            res.on('data', (c: Buffer) => chunks.push(c))
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
          },
        )
        .on('error', reject)
    })
  }

  /** Opens a session's one-time address and follows its redirect: the client is then bound to the session. */
  async redeem(address: string): Promise<RelayAnswer> {
    const first = await this.get(address)
    if (first.status !== 303 || !first.headers.location) return first
    return this.get(new URL(first.headers.location, address).toString())
  }
}
