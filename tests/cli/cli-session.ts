import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { vi } from 'vitest'
import { main } from '../../cli/index'
import { ENROLLMENT_CODE_ALPHABET } from '../../app/domain/agents/enrollment-code'
import { portalDb, type RunningPortal } from '../e2e/harness'

export const DEMO_PASSWORD = 'Pixelfleet-demo-1'
export const DEMO = {
  admin: 'admin@pixelfleet.io',
  owner: 'owner@demo.pixelfleet.io',
  member: 'member@demo.pixelfleet.io',
  viewer: 'viewer@demo.pixelfleet.io',
} as const
export type Who = keyof typeof DEMO | 'nobody'
export type CliResult = { code: number; stdout: string; stderr: string }

/**
 * Runs the CLI in this process (main(argv), as bin.js does) against a started portal, with a
 * personal API token per demo account: no process spawn per command, so many commands stay cheap.
 */
export async function cliSession(portal: RunningPortal, options: { tokens?: boolean } = {}) {
  const configHome = fs.mkdtempSync(path.join(os.tmpdir(), 'pixelfleet-cli-'))
  const tokens: Partial<Record<Who, string>> = {}
  for (const who of options.tokens === false ? [] : (Object.keys(DEMO) as (keyof typeof DEMO)[])) {
    const response = await fetch(`${portal.url}/client/v1/public/auth/tokenCreate`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: DEMO[who], password: DEMO_PASSWORD, name: 'cli test' }),
    })
    tokens[who] = ((await response.json()) as { token: string }).token
  }

  /** Runs a command in-process; `live` sees its output while it runs (for --follow). */
  function start(who: Who, args: string[]) {
    const live = { stdout: '' }
    return { live, done: runInto(live, who, args) }
  }

  async function run(who: Who, ...args: string[]): Promise<CliResult> {
    return runInto({ stdout: '' }, who, args)
  }

  async function runInto(live: { stdout: string }, who: Who, args: string[]): Promise<CliResult> {
    let stderr = ''
    const saved = { url: process.env.PIXELFLEET_URL, token: process.env.PIXELFLEET_TOKEN, xdg: process.env.XDG_CONFIG_HOME, password: process.env.PIXELFLEET_PASSWORD }
    Object.assign(process.env, { PIXELFLEET_URL: portal.url, PIXELFLEET_TOKEN: tokens[who as keyof typeof DEMO] ?? '', XDG_CONFIG_HOME: configHome, PIXELFLEET_PASSWORD: '' })
    const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((live.stdout += chunk.toString()), true))
    const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += chunk.toString()), true))
    process.exitCode = undefined
    try {
      const code = await main(args)
      return { code, stdout: live.stdout, stderr }
    } finally {
      out.mockRestore()
      err.mockRestore()
      process.exitCode = undefined
      for (const [key, value] of [
        ['PIXELFLEET_URL', saved.url],
        ['PIXELFLEET_TOKEN', saved.token],
        ['XDG_CONFIG_HOME', saved.xdg],
        ['PIXELFLEET_PASSWORD', saved.password],
      ] as const) {
        if (value === undefined) delete process.env[key]
        else process.env[key] = value
      }
    }
  }

  /** Runs a command that must succeed and parses its --json output. */
  async function json<T = Record<string, unknown>>(who: Who, ...args: string[]): Promise<T> {
    const result = await run(who, ...args, '--json')
    if (result.code !== 0) throw new Error(`pixelfleet ${args.join(' ')} exited ${result.code}: ${result.stderr}`)
    return JSON.parse(result.stdout) as T
  }

  /** Calls the API directly (changes made while a CLI command is running). */
  async function api(who: keyof typeof DEMO, name: string, body: object) {
    const response = await fetch(`${portal.url}/client/v1/${name}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tokens[who]}` },
      body: JSON.stringify(body),
    })
    return response.json() as Promise<Record<string, unknown>>
  }

  return { run, start, json, api, tokens, configHome, cleanup: () => fs.rmSync(configHome, { recursive: true, force: true }) }
}

/** A code the way agents make them: 8 characters of the enrollment alphabet. */
export function randomCode(): string {
  const code = Array.from({ length: 8 }, () => ENROLLMENT_CODE_ALPHABET[Math.floor(Math.random() * ENROLLMENT_CODE_ALPHABET.length)]).join('')
  return `${code.slice(0, 3)}-${code.slice(3, 5)}-${code.slice(5)}`
}

/** Agents that registered and show an enrollment code, written straight into the portal's database. */
export async function agentsWithCodes(portal: RunningPortal, names: string[]) {
  const db = await portalDb(portal)
  try {
    const created = []
    for (const name of names) {
      const agent = await db.agent.create({ data: { clientName: name, product: 'VX1000', serial: `SN-${name}`, secretHash: 'x' } })
      await db.system.create({ data: { agentId: agent.id, key: 'sys-1', name: 'Main Wall' } })
      const code = randomCode()
      await db.enrollmentCode.create({ data: { agentId: agent.id, code: code.replace(/-/g, '') } })
      created.push({ agentId: agent.id, code })
    }
    return created
  } finally {
    await db.$disconnect()
  }
}
