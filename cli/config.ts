import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { z } from 'zod'

export const DEFAULT_URL = 'http://localhost:3000'

/** What `login` stores: the portal address and a personal API token (revocable in user settings). */
const storedConfigSchema = z.object({ url: z.string(), token: z.string(), email: z.string().optional(), tokenId: z.string().optional() })
export type StoredConfig = z.infer<typeof storedConfigSchema>

/** $XDG_CONFIG_HOME/pixelfleet/config.json, else ~/.config/pixelfleet/config.json. */
export function configPath(env: Record<string, string | undefined> = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config')
  return path.join(base, 'pixelfleet', 'config.json')
}

export function readConfig(file = configPath()): StoredConfig | null {
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch {
    return null
  }
  try {
    const parsed = storedConfigSchema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** Written owner-only (0600 in a 0700 directory): the file holds a credential. */
export function writeConfig(config: StoredConfig, file = configPath()) {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
  const temp = `${file}.${process.pid}.tmp`
  fs.writeFileSync(temp, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 })
  fs.renameSync(temp, file)
  fs.chmodSync(file, 0o600)
}

export function deleteConfig(file = configPath()): boolean {
  try {
    fs.unlinkSync(file)
    return true
  } catch {
    return false
  }
}

/** Trailing slashes removed, so `${url}/client/v1/...` is always well formed. */
export const normalizeUrl = (url: string) => url.replace(/\/+$/, '')
