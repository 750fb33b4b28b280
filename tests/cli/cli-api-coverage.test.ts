import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { apiCalls } from '~/api/index.server'
import { CLI_LESS_CALLS, callBody, flagOf } from '../../cli/commands/api'
import { bashCompletion } from '../../cli/commands/completion'
import { tokenSpecBody } from '../../cli/commands/tokens'
import { API_CALLS_FILE, apiCallsManifestText } from '../../cli/generate-api-calls'
import { type ManifestCall } from '../../cli/api-calls-manifest'
import { createProgram } from '../../cli/index'

/** Every API call has a CLI command (`pixelfleet api <call>`) unless it is CLI-less on purpose (issue #29). */
describe('CLI coverage of the API', () => {
  it('builds its api commands from an up-to-date manifest of the call registry', () => {
    // A new or changed call fails here until `npm run cli:api-calls` rewrites the manifest.
    expect(fs.readFileSync(API_CALLS_FILE, 'utf8')).toBe(apiCallsManifestText())
  }, 120_000)

  it('has a command for every call but the deliberately CLI-less ones, each of those with its reason', () => {
    const api = createProgram().commands.find((c) => c.name() === 'api')!
    const commands = new Map(api.commands.map((c) => [c.name(), c]))
    for (const [name, reason] of Object.entries(CLI_LESS_CALLS)) {
      expect(Object.hasOwn(apiCalls, name), `CLI-less '${name}' is not an API call`).toBe(true)
      expect(reason.length).toBeGreaterThan(20)
    }
    const missing = Object.keys(apiCalls).filter((name) => !Object.hasOwn(CLI_LESS_CALLS, name) && !commands.has(name))
    expect(missing).toEqual([])
    // each input field is an option
    const issueList = commands.get('issue/list')!
    expect(issueList.options.map((o) => o.long)).toEqual(expect.arrayContaining(['--organization-id', '--project-id', '--agent-id', '--state', '--page', '--data']))
    expect(commands.get('organization/createNotificationChannel')!.options.map((o) => o.long)).toContain('--body-url')
  })

  it('offers the api commands in shell completion', () => {
    const script = bashCompletion(createProgram())
    expect(script).toContain('"api issue/acknowledge"')
    expect(script).toMatch(/"api issue\/list"\) words='[^']*--organization-id/)
  })

  it('turns options into the request body with their types, and names what is missing', () => {
    const call: ManifestCall = {
      name: 'x/y',
      public: false,
      fields: [
        { name: 'organizationId', kind: 'string', required: true },
        { name: 'page', kind: 'number', required: false },
        { name: 'recurse', kind: 'boolean', required: false },
        { name: 'window', kind: 'json', required: false },
        { name: 'url', kind: 'string', required: false },
      ],
    }
    expect(flagOf('url')).toBe('--body-url')
    expect(callBody(call, { organizationId: 'o', page: '2', recurse: 'yes', window: '{"name":"Show"}', bodyUrl: 'https://x.test' })).toEqual({
      organizationId: 'o',
      page: 2,
      recurse: true,
      window: { name: 'Show' },
      url: 'https://x.test',
    })
    expect(callBody(call, { data: '{"organizationId":"o","page":1}', page: '3' })).toEqual({ organizationId: 'o', page: 3 })
    expect(() => callBody(call, {})).toThrow('x/y needs --organization-id')
    expect(() => callBody(call, { organizationId: 'o', page: 'two' })).toThrow('--page must be a number')
    expect(() => callBody(call, { data: '[1]' })).toThrow('--data must be a JSON object')
  })

  it('maps --scope, --permissions and --expires to the token fields', () => {
    expect(tokenSpecBody({})).toEqual({})
    expect(tokenSpecBody({ scope: 'read', expires: '7' })).toEqual({ scope: 'read', expiresInDays: 7 })
    expect(tokenSpecBody({ scope: 'custom', permissions: 'org.view, project.view', expires: 'never' })).toEqual({ scope: 'custom', permissions: ['org.view', 'project.view'], expiresInDays: null })
    expect(() => tokenSpecBody({ scope: 'full', permissions: 'org.view' })).toThrow('--permissions needs --scope custom')
  })
})
