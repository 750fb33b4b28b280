/**
 * Issue 28 (medium): the channel URL guard decides on the parsed, normalised address. The URL
 * parser rewrites [::ffff:127.0.0.1] to [::ffff:7f00:1], which used to pass as public; every
 * spelling of an internal address below must be refused in production, every public one allowed,
 * names are checked on what they resolve to, again at connect time (DNS rebinding), and redirects
 * are not followed.
 */
import http from 'node:http'
import { type AddressInfo } from 'node:net'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { assertPublicDestination, guardedFetch, isInternalAddress, parseChannelUrl, validateChannelUrl } from '~/domain/notifications/channels/url-guard.server'
import { getConfig, setConfig } from '~/utils/env.server'

const testConfig = getConfig()
const production = () => setConfig({ ...testConfig, NODE_ENV: 'production', CHANNEL_ALLOW_PRIVATE: false })
afterEach(() => setConfig(testConfig))

const noDns = async (host: string): Promise<string[]> => {
  throw new Error(`an address literal must not be resolved (${host})`)
}

const INTERNAL = [
  // IPv4 in every spelling the URL parser accepts: decimal, octal, hex, short forms
  'https://127.0.0.1/',
  'https://2130706433/',
  'https://0x7f000001/',
  'https://0177.0.0.1/',
  'https://017700000001/',
  'https://127.1/',
  'https://0x7f.1/',
  'https://0/',
  'https://0.0.0.0/',
  'https://10.1.2.3/',
  'https://012.1.2.3/',
  'https://172.16.0.1/',
  'https://172.31.255.255/',
  'https://192.168.0.1/',
  'https://3232235521/',
  'https://169.254.169.254/',
  'https://0xa9fea9fe/',
  'https://100.64.0.1/',
  'https://198.18.0.1/',
  'https://192.0.0.8/',
  'https://224.0.0.1/',
  'https://255.255.255.255/',
  // IPv6 loopback and unspecified, in full and short forms
  'https://[::1]/',
  'https://[0:0:0:0:0:0:0:1]/',
  'https://[0000:0000:0000:0000:0000:0000:0000:0001]/',
  'https://[::]/',
  // IPv4-mapped, dotted and hex (the reported bypass), and SIIT-translated
  'https://[::ffff:127.0.0.1]/',
  'https://[::ffff:7f00:1]/',
  'https://[0:0:0:0:0:ffff:7f00:1]/',
  'https://[::FFFF:7F00:0001]/',
  'https://[::ffff:10.0.0.1]/',
  'https://[::ffff:a9fe:a9fe]/',
  'https://[::ffff:c0a8:101]/',
  'https://[::ffff:0:127.0.0.1]/',
  // IPv4-compatible (deprecated): refused whatever it carries
  'https://[::127.0.0.1]/',
  'https://[::8.8.8.8]/',
  // NAT64 carrying an internal address, and the local-use NAT64 range
  'https://[64:ff9b::127.0.0.1]/',
  'https://[64:ff9b::a9fe:a9fe]/',
  'https://[64:ff9b::10.0.0.1]/',
  'https://[64:ff9b:1::1]/',
  // 6to4 carrying an internal address
  'https://[2002:7f00:1::1]/',
  'https://[2002:c0a8:101::1]/',
  // unique-local, link-local, site-local, multicast, documentation, Teredo, discard
  'https://[fc00::1]/',
  'https://[fd12:3456:789a::1]/',
  'https://[fe80::1]/',
  'https://[fec0::1]/',
  'https://[ff02::1]/',
  'https://[2001:db8::1]/',
  'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
  'https://[100::1]/',
]

const PUBLIC = [
  'https://8.8.8.8/',
  'https://134744072/',
  'https://0x08080808/',
  'https://203.0.113.7/',
  'https://[2606:4700:4700::1111]/',
  'https://[2a00:1450:4001:80b::200e]/',
  'https://[::ffff:8.8.8.8]/',
  'https://[::ffff:808:808]/',
  'https://[64:ff9b::8.8.8.8]/',
  'https://[2002:808:808::1]/',
]

describe('channel URL guard (production)', () => {
  it.each(INTERNAL)('refuses %s', async (raw) => {
    production()
    const url = parseChannelUrl(raw)
    expect(isInternalAddress(url.hostname), `${raw} parsed as ${url.hostname}`).toBe(true)
    await expect(validateChannelUrl(raw, noDns)).rejects.toMatchObject({ status: 400 })
  })

  it.each(PUBLIC)('allows %s', async (raw) => {
    production()
    const url = parseChannelUrl(raw)
    expect(isInternalAddress(url.hostname), `${raw} parsed as ${url.hostname}`).toBe(false)
    await expect(validateChannelUrl(raw, noDns)).resolves.toBe(url.toString())
  })

  it('checks what a name resolves to: any internal address refuses it', async () => {
    production()
    for (const addresses of [['::ffff:7f00:1'], ['fd00::1'], ['8.8.8.8', '10.0.0.1'], ['64:ff9b::7f00:1'], ['169.254.169.254']]) {
      await expect(validateChannelUrl('https://hooks.example.com/x', async () => addresses), addresses.join()).rejects.toMatchObject({ status: 400 })
    }
    await expect(validateChannelUrl('https://hooks.example.com/x', async () => ['8.8.8.8', '2606:4700:4700::1111'])).resolves.toBe('https://hooks.example.com/x')
    await expect(validateChannelUrl('https://unresolvable.example/x', async () => [])).rejects.toMatchObject({ status: 400 })
  })

  it('treats anything that is not an address as internal', () => {
    for (const text of ['', 'example.com', '1.2.3', '::ffff:1.2.3.4.5', 'fe80::1%eth0x']) expect(isInternalAddress(text), text).toBe(true)
  })
})

describe('channel requests at connect time', () => {
  const servers: http.Server[] = []
  afterAll(() => servers.forEach((s) => s.close()))
  async function receiver(handler: http.RequestListener) {
    const hits: string[] = []
    const server = http.createServer((req, res) => {
      hits.push(req.url ?? '')
      handler(req, res)
    })
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return { port: (server.address() as AddressInfo).port, hits }
  }
  const post = (url: string) => guardedFetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', signal: AbortSignal.timeout(30_000) })

  it('refuses a name that resolves inside when connecting, although the earlier check saw a public address (DNS rebinding)', async () => {
    const inside = await receiver((_req, res) => res.end('ok'))
    production()
    // the save/send-time check was given a public answer ...
    await expect(assertPublicDestination(new URL('https://rebind.example/'), async () => ['203.0.113.7'])).resolves.toBeUndefined()
    // ... but the name now resolves to loopback: the connection is refused before anything is sent
    await expect(post(`http://localhost:${inside.port}/hook`)).rejects.toMatchObject({ code: 'invalid-argument' })
    expect(inside.hits).toEqual([])
  })

  it('does not follow redirects', async () => {
    const target = await receiver((_req, res) => res.end('reached'))
    const redirecting = await receiver((_req, res) => res.writeHead(302, { location: `http://localhost:${target.port}/inside` }).end())
    // development/test mode: loopback receivers are allowed, so the redirect itself is what is tested
    const response = await post(`http://localhost:${redirecting.port}/hook`)
    expect(response.status).toBe(302)
    expect(target.hits).toEqual([])
    // and a 2xx answer is read normally
    const ok = await post(`http://localhost:${target.port}/hook`)
    expect([ok.status, await ok.text()]).toEqual([200, 'reached'])
  })
})
