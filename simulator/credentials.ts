import fs from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'

/**
 * Where a virtual agent keeps the id and secret it got from `register`, so a restarted
 * simulator reconnects as the same agent instead of registering a duplicate. One small JSON file
 * per agent serial (serials are deterministic from the seed) in the state directory.
 */
const credentialsSchema = z.object({ agentId: z.string().min(1), secret: z.string().min(1), serial: z.string() })
export type AgentCredentials = z.infer<typeof credentialsSchema>

export class CredentialStore {
  constructor(private readonly dir: string | undefined) {}

  private file(serial: string) {
    return this.dir ? path.join(this.dir, `agent-${serial}.json`) : undefined
  }

  /**
   * Credentials saved for this serial, if any. They are tried even when the broker address
   * changed; a portal that does not know them refuses the login and the agent registers anew.
   */
  async load(serial: string): Promise<AgentCredentials | undefined> {
    const file = this.file(serial)
    if (!file) return undefined
    try {
      const parsed = credentialsSchema.safeParse(JSON.parse(await fs.readFile(file, 'utf8')))
      return parsed.success ? parsed.data : undefined
    } catch {
      return undefined
    }
  }

  async save(credentials: AgentCredentials) {
    const file = this.file(credentials.serial)
    if (!file) return
    await fs.mkdir(path.dirname(file), { recursive: true })
    // Write then rename, so a crash never leaves half a file behind; the secret is for this user only.
    const temporary = `${file}.${process.pid}.tmp`
    await fs.writeFile(temporary, JSON.stringify(credentials, null, 2), { mode: 0o600 })
    await fs.rename(temporary, file)
  }

  async forget(serial: string) {
    const file = this.file(serial)
    if (file) await fs.rm(file, { force: true })
  }
}
