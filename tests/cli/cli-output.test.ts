import { describe, expect, it } from 'vitest'
import { agentsListJson, agentsListText } from '../../cli/commands/agents'
import { ExitCode, exitCodeForApiError, errorJson, toCliError } from '../../cli/errors'
import { configPath } from '../../cli/config'
import { malformedCode, parseCodesFile } from '../../cli/commands/enroll'
import { projectTreeText } from '../../cli/commands/projects'
import { formatTable, rowsCsv } from '../../cli/output'

const agent = {
  id: 'a1',
  name: 'FOH Processor',
  product: 'VX1000',
  serial: 'SN1',
  version: '1.2',
  isConnected: true,
  lastSeen: '2026-01-01T11:58:00.000Z',
  systems: [
    { id: 's1', key: 'sys-1', name: 'Main', projectId: 'p1', projectName: 'Main Stage' },
    { id: 's2', key: 'sys-2', name: 'Side', projectId: null, projectName: null },
  ],
}

describe('CLI output and exit codes', () => {
  it('maps portal errors to the documented exit codes', () => {
    expect(exitCodeForApiError(401, 'mvr-auth/notloggedin')).toBe(ExitCode.auth)
    expect(exitCodeForApiError(403, 'mvr-auth/unverified')).toBe(ExitCode.auth)
    expect(exitCodeForApiError(403, 'permission-denied')).toBe(ExitCode.permission)
    expect(exitCodeForApiError(404, 'enrollment/invalid-code')).toBe(ExitCode.notFound)
    expect(exitCodeForApiError(400, 'invalid-argument')).toBe(ExitCode.usage)
    expect(exitCodeForApiError(429, 'resource-exhausted')).toBe(ExitCode.rateLimited)
    expect(exitCodeForApiError(500, 'internal')).toBe(ExitCode.unexpected)
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })
    expect(errorJson(toCliError(refused, 'http://portal'))).toEqual({
      error: { code: 'cli/network', message: 'Cannot reach the portal at http://portal: connection refused', exitCode: 6 },
    })
  })

  it('prints agents as a table and as stable JSON', () => {
    const text = agentsListText([agent], null, Date.parse('2026-01-01T12:00:00.000Z'))
    expect(text.split('\n')[0]).toMatch(/^ID\s+NAME\s+PRODUCT\s+SERIAL\s+STATE\s+LAST SEEN\s+SYSTEMS$/)
    expect(text).toMatch(/a1\s+FOH Processor\s+VX1000\s+SN1\s+connected\s+2m ago\s+1\/2/)
    expect(agentsListText([], null)).toBe('No agents.')
    expect(agentsListJson('org', [agent], 'a1').agents[0]).toMatchObject({ id: 'a1', connected: true, systems: [{ projectName: 'Main Stage' }, { projectId: null }] })
  })

  it('keeps the config under XDG_CONFIG_HOME', () => {
    expect(configPath({ XDG_CONFIG_HOME: '/x/cfg' })).toBe('/x/cfg/pixelfleet/config.json')
  })
})

describe('CLI formats', () => {
  it('cuts the widest table columns to the terminal width, and never without a width', () => {
    const rows = [['a1', 'A very long agent name that goes on', 'ok']]
    const cut = formatTable(['ID', 'NAME', 'STATE'], rows, 30)
    expect(cut.split('\n').every((line) => line.length <= 30)).toBe(true)
    expect(cut).toMatch(/a1 {2}A very long agent.*… {2}ok/)
    expect(formatTable(['ID', 'NAME', 'STATE'], rows)).toContain('A very long agent name that goes on')
  })

  it('writes CSV with a header, CRLF line ends and formula-safe cells', () => {
    const csv = rowsCsv([{ name: '=cmd|"/c calc"', n: 2 }], [
      ['name', (r) => r.name],
      ['count', (r) => r.n],
    ])
    expect(csv).toBe(`name,count\r\n"'=cmd|""/c calc""",2\r\n`)
  })

  it('tells malformed enrollment codes (usage) from codes to look up', () => {
    expect(malformedCode('abc-de-fgh')).toBeNull()
    expect(malformedCode('ABC-DE-FG1')).toContain("Invalid enrollment code 'ABC-DE-FG1'") // 1 is not in the alphabet
    expect(malformedCode('ABCDEFG')).toContain('expected XXX-XX-XXX')
    expect(malformedCode('')).toBe('Please input enrollment code')
    expect(parseCodesFile('code,project\nABC-DE-FGH,Main Stage\n\n# later\nHJK-MN-PQR\n')).toEqual([
      { line: 2, code: 'ABC-DE-FGH', project: 'Main Stage' },
      { line: 5, code: 'HJK-MN-PQR' },
    ])
    expect(() => parseCodesFile('ABC-DE-FGH\nOOPS\n')).toThrow('line 2: Invalid enrollment code')
    expect(() => parseCodesFile('code\n')).toThrow('no enrollment codes')
  })

  it('indents the project tree', () => {
    const node = (id: string, name: string) => ({ id, name, description: '', parentId: null, parentName: null, systemsCount: 1, linkTo: '', subRows: [] as never[] })
    expect(projectTreeText([{ ...node('p1', 'Main'), subRows: [node('p2', 'Left') as never] }])).toBe('Main  (p1, 1 system)\n  Left  (p2, 1 system)')
    expect(projectTreeText([])).toBe('No projects.')
  })
})

describe('CLI output into a pipe', () => {
  it('exits 0 without a stack trace when the reader closes the pipe early (`| head`)', async () => {
    const { spawn } = await import('node:child_process')
    const path = await import('node:path')
    const root = path.resolve(import.meta.dirname, '../..')
    const child = spawn(process.execPath, ['cli/bin.js', '--help'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.destroy() // the reader is gone before the CLI writes anything
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    expect(stderr).not.toContain('EPIPE')
    expect(code).toBe(0)
  })
})
