import http from 'node:http'
import { type AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { DEMO_ORG_ID, DEMO_PASSWORD, DEMO_USERS } from '../../prisma/seed-data'
import { browser, newPage, portal, portalDb, signIn, withPortalAndBrowser } from './harness'

withPortalAndBrowser({ CHANNEL_ALLOW_PRIVATE: 'true' })

const hits: { headers: http.IncomingHttpHeaders; body: string }[] = []
const receiver = http.createServer((req, res) => {
  let body = ''
  req.on('data', (c) => (body += c))
  req.on('end', () => {
    hits.push({ headers: req.headers, body })
    res.writeHead(200).end('ok')
  })
})
const listening = new Promise<number>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve((receiver.address() as AddressInfo).port)))
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())))
const shot = (name: string) => `/tmp/shots-channels/${name}.png`

describe('notification channels and root causes', () => {
  it('creates a webhook channel, sends a test, shows it in the delivery log; the Issues tab shows a root-cause group', async () => {
    const port = await listening
    const { context, page } = await newPage(browser, portal.url)
    await signIn(page, DEMO_USERS.owner.email, DEMO_PASSWORD)
    await page.goto(`/organization/${DEMO_ORG_ID}/settings/channels`)
    await page.getByText('No notification channels').waitFor()
    await page.getByRole('button', { name: 'New Channel' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Name').fill('Stage webhook')
    await dialog.getByLabel('URL').fill(`http://localhost:${port}/hook`)
    await dialog.getByRole('button', { name: 'Create' }).click()
    const secret = await dialog.getByLabel('Signing secret').inputValue()
    expect(secret).toMatch(/^whsec_/)
    await dialog.getByRole('button', { name: 'Done' }).click()

    const table = page.getByRole('table', { name: 'Notification channels' })
    await table.getByText('Stage webhook').waitFor()
    await table.getByRole('button', { name: 'Test' }).click()
    await page.getByText('Test message delivered').waitFor()
    expect(hits).toHaveLength(1)
    expect(hits[0]!.headers['x-pixelfleet-signature']).toMatch(/^sha256=[0-9a-f]{64}$/)
    await table.getByRole('link', { name: 'Delivery log' }).click()
    const log = page.getByRole('table', { name: 'Delivery log' })
    await log.getByText('Test notification for').waitFor()
    expect(await log.getByText('sent').count()).toBe(1)
    expect(await log.getByRole('cell', { name: '200' }).count()).toBe(1)
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.screenshot({ path: shot('channels-1440'), fullPage: true })
    await page.setViewportSize({ width: 390, height: 844 })
    await page.screenshot({ path: shot('channels-390'), fullPage: true })

    // A switch port down with its tiles not responding, as an agent would report it.
    const db = await portalDb(portal)
    const project = await db.project.findFirstOrThrow({ where: { organizationId: DEMO_ORG_ID, parentId: null }, orderBy: { name: 'asc' } })
    const agent = await db.agent.create({ data: { clientName: 'Root cause agent', product: 'VX1000', serial: 'SN-RC-E2E', secretHash: 'x', organizationId: DEMO_ORG_ID, enrolledAt: new Date() } })
    const system = await db.system.create({ data: { agentId: agent.id, key: 'wall', name: 'Main wall', projectId: project.id } })
    await db.device.createMany({
      data: [
        { systemId: system.id, key: 'switch-1', component: 'switch', name: 'Stage switch', properties: JSON.stringify({ portsDown: [3], links: [{ port: 3, device: 'processor' }] }) },
        { systemId: system.id, key: 'processor', component: 'processor', name: 'Processor' },
        ...[1, 2, 3, 4].map((n) => ({ systemId: system.id, key: `tile-${n}`, component: 'receiver', name: `Tile ${n}`, parentKey: 'processor' })),
      ],
    })
    const now = new Date()
    await db.issue.create({ data: { systemId: system.id, kind: 'alert', key: 'switch.portDown', component: 'switch', deviceKey: 'switch-1', message: 'Stage switch: port 3 link down', severity: 3, latestCount: 1, latestAt: now, isActive: true, activation: 1 } })
    await db.issue.create({ data: { systemId: system.id, kind: 'alert', key: 'recv.offline', component: 'receiver', message: 'Tile 1 not responding (+3 more)', severity: 2, latestCount: 4, latestAt: now, isActive: true, activation: 1 } })
    await db.$disconnect()

    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(`/organization/${DEMO_ORG_ID}/projects/${project.id}/issues`)
    const group = page.getByTestId('root-cause').filter({ hasText: 'Stage switch: port 3 link down' })
    await group.getByText('explains 1 issue on 4 devices').waitFor()
    await group.locator('summary').click()
    await group.getByText('Tile 1 not responding (+3 more)').waitFor()
    await page.screenshot({ path: shot('issues-1440'), fullPage: true })
    await page.setViewportSize({ width: 390, height: 844 })
    await page.screenshot({ path: shot('issues-390'), fullPage: true })
    await page.goto(`/organization/${DEMO_ORG_ID}/agents/${agent.id}`)
    await page.getByText('explains 1 issue on 4 devices').waitFor()
    await page.screenshot({ path: shot('agent-390'), fullPage: true })
    await context.close()
  })
})
