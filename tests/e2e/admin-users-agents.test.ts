import { type Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { DEMO_ORG_ID, DEMO_PASSWORD, DEMO_USERS } from '../../prisma/seed-data'
import { browser, newPage, portal, portalDb, signIn, signInAs, withPortalAndBrowser } from './harness'

withPortalAndBrowser()

/** With PIXELFLEET_SHOTS=<dir>, the screens are also saved at 1440 and 390 px for a look. */
async function shots(page: Page, name: string) {
  const dir = process.env.PIXELFLEET_SHOTS
  if (!dir) return
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.waitForTimeout(200)
  await page.screenshot({ path: `${dir}/${name}-1440.png`, fullPage: true })
  // on a phone the sidebar is a drawer behind the header's menu button
  await page.setViewportSize({ width: 390, height: 844 })
  await page.waitForTimeout(200)
  await page.screenshot({ path: `${dir}/${name}-390.png`, fullPage: true })
  await page.setViewportSize({ width: 1400, height: 900 })
}

describe('Admin > Users', () => {
  it('pages the users, guards the edit dialog and disabling cuts off an open session and a token at once', async () => {
    const db = await portalDb(portal)
    try {
      const base = Date.UTC(2020, 0, 1)
      await db.user.createMany({ data: Array.from({ length: 30 }, (_, i) => ({ email: `crew${i}@paged.test`, name: `Crew ${i}`, createdAt: new Date(base + i * 1000) })) })
      await db.user.create({ data: { email: 'robot@agents.test', name: 'Robot Account', isAgent: true } })
    } finally {
      await db.$disconnect()
    }

    // The person to be disabled: signed in through the real form, with an API token of their own.
    const victim = await newPage(browser, portal.url)
    await signIn(victim.page, DEMO_USERS.viewer.email, DEMO_PASSWORD)
    const created = await victim.page.request.post('/client/v1/token/create', { data: { name: 'Viewer script' } })
    const { token } = (await created.json()) as { token: string }
    const whoami = () => fetch(`${portal.url}/client/v1/auth/authorized`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: '{}' })
    expect((await whoami()).status).toBe(200)

    const { context, page } = await newPage(browser, portal.url)
    await signInAs(context, portal, DEMO_USERS.admin.email)
    // short enough that the end of the first page is below the fold (else the next page loads at once)
    await page.setViewportSize({ width: 1400, height: 500 })
    await page.goto('/admin/users')
    await page.waitForLoadState('networkidle')
    const rows = page.getByTestId('admin-user-row')
    expect(await rows.count()).toBe(25)
    expect(await page.getByText('Robot Account').count()).toBe(0)
    // infinite scroll: the next page loads at the bottom of the table
    await page.getByRole('button', { name: 'Load more (25 loaded)' }).waitFor()
    await page.locator('main').evaluate((m) => m.scrollTo(0, m.scrollHeight))
    await page.getByText('34 users').waitFor({ timeout: 45_000 }).catch(async (e: Error) => {
      const state = await page.locator('main').evaluate((m) => ({ top: m.scrollTop, height: m.scrollHeight, client: m.clientHeight, text: (m.textContent ?? '').slice(-200) }))
      throw new Error(`${e.message}\n${JSON.stringify(state)}`)
    })
    expect(await rows.count()).toBe(34)
    await page.locator('main').evaluate((m) => m.scrollTo(0, 0))
    await page.setViewportSize({ width: 1400, height: 900 })

    // one's own account: both toggles locked
    await page.getByRole('button', { name: `Edit ${DEMO_USERS.admin.email}` }).click()
    const dialog = page.getByRole('dialog')
    expect(await dialog.getByRole('switch', { name: 'Admin' }).isDisabled()).toBe(true)
    expect(await dialog.getByRole('switch', { name: 'Disabled' }).isDisabled()).toBe(true)
    await page.keyboard.press('Escape')
    // not a vendor address: no Admin toggle
    await page.getByRole('button', { name: `Edit ${DEMO_USERS.owner.email}` }).click()
    expect(await dialog.getByRole('switch', { name: 'Admin' }).count()).toBe(0)
    await dialog.getByText('Only a verified pixelfleet.io e-mail address can be made a site admin.').waitFor()
    await page.keyboard.press('Escape')

    // expanded row: raw fields and the ACL actions
    const viewerRow = rows.filter({ hasText: DEMO_USERS.viewer.email })
    await viewerRow.getByRole('button', { name: DEMO_USERS.viewer.name }).click()
    const details = page.getByTestId('admin-user-details')
    await details.getByText(DEMO_USERS.viewer.id).waitFor()
    await details.getByRole('button', { name: 'Validate Compiled ACLs for User' }).click()
    await details.getByTestId('acl-validation').getByText('ok').waitFor()
    await details.getByRole('button', { name: 'Fetch Acl / compiledAcl data' }).click()
    expect(await details.getByTestId('acl-data').textContent()).toContain('"compiledAcl"')
    await shots(page, 'admin-users')

    // disable the viewer
    await viewerRow.getByRole('button', { name: `Edit ${DEMO_USERS.viewer.email}` }).click()
    await dialog.getByRole('switch', { name: 'Disabled' }).click()
    await dialog.getByRole('button', { name: 'Save' }).click()
    await page.getByText('User Updated').waitFor()
    await viewerRow.getByText('Blocked').waitFor()

    // the victim's very next request signs them out with the message; the token is refused too
    await victim.page.getByRole('link', { name: 'Settings' }).first().click()
    await victim.page.waitForURL((url) => url.pathname === '/login')
    await victim.page.getByText('Account was administratively disabled').waitFor()
    expect(new URL(victim.page.url()).searchParams.get('error')).toBe('mvr-auth/disabled')
    const refused = await whoami()
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ code: 'mvr-auth/disabled', message: 'Account was administratively disabled' })
    await victim.context.close()
    await context.close()
  })
})

describe('Admin > Agents', () => {
  it('filters by name, loads more, shows codes and tunnels when expanded and removes after confirmation', async () => {
    const db = await portalDb(portal)
    let fohId = ''
    try {
      for (let i = 0; i < 24; i++) await db.agent.create({ data: { clientName: `Rig ${String(i).padStart(2, '0')}`, secretHash: 'x', product: 'LEDProc X4', version: '4.2.1' } })
      const foh = await db.agent.create({ data: { clientName: 'FOH Processor', secretHash: 'x', product: 'LEDProc X4', version: '4.3.0', organizationId: DEMO_ORG_ID } })
      fohId = foh.id
      await db.enrollmentCode.create({ data: { agentId: foh.id, code: 'ABCDEFGH', createdAt: new Date(Date.now() - 20 * 86400_000), usedAt: new Date() } })
      await db.tunnelConnection.create({ data: { agentId: foh.id, address: '198.51.100.7', port: 51234, forwards: JSON.stringify({ 8080: { connectionsActive: 2 } }) } })
      const spare = await db.agent.create({ data: { clientName: 'Spare unit', secretHash: 'x' } })
      await db.enrollmentCode.create({ data: { agentId: spare.id, code: 'JKMNPQRS' } })
    } finally {
      await db.$disconnect()
    }

    const { context, page } = await newPage(browser, portal.url)
    await signInAs(context, portal, DEMO_USERS.admin.email)
    await page.setViewportSize({ width: 1400, height: 500 })
    await page.goto('/admin/agents')
    await page.waitForLoadState('networkidle')
    const rows = page.getByTestId('admin-agent-row')
    expect(await rows.count()).toBe(20)
    // the link itself (scrolling to it would load the next page by infinite scroll first)
    await page.getByRole('button', { name: 'Load more (20 loaded)' }).evaluate((b: HTMLElement) => b.click())
    await page.getByText('26 agents').waitFor()
    await page.setViewportSize({ width: 1400, height: 900 })
    // only enrolled agents can be removed
    expect(await page.getByRole('button', { name: /^Remove / }).count()).toBe(1)

    await page.getByLabel('Filter by name').fill('  spare   foh ')
    await page.getByText('2 agents').waitFor()
    expect(await rows.allTextContents()).toEqual([expect.stringContaining('FOH Processor'), expect.stringContaining('Spare unit')])
    const foh = rows.filter({ hasText: 'FOH Processor' })
    expect(await foh.textContent()).toContain('Demo Live Events')

    await page.getByRole('button', { name: 'Spare unit', exact: true }).click()
    await page.getByRole('button', { name: 'FOH Processor', exact: true }).click()
    const details = page.getByTestId('admin-agent-details')
    await details.first().getByText('port 8080: 2 connection(s)').waitFor()
    expect(await details.first().getByText(fohId).count()).toBe(1)
    expect(await details.first().locator('[data-current="false"]').textContent()).toBe('ABC-DE-FGH')
    expect(await details.last().locator('[data-current="true"]').textContent()).toBe('JKM-NP-QRS')
    await shots(page, 'admin-agents')

    await foh.getByRole('button', { name: 'Remove FOH Processor' }).click()
    const confirm = page.getByRole('alertdialog')
    await confirm.getByText('Remove Agent').waitFor()
    await confirm.getByText('Are you sure you want to remove FOH Processor?').waitFor()
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await foh.getByRole('button', { name: 'Remove FOH Processor' }).click()
    await confirm.getByRole('button', { name: 'Remove' }).click()
    await foh.getByText('Not enrolled').waitFor()
    expect(await page.getByRole('button', { name: /^Remove / }).count()).toBe(0)

    const after = await portalDb(portal)
    try {
      expect((await after.agent.findUniqueOrThrow({ where: { id: fohId } })).organizationId).toBeNull()
      expect(await after.auditRecord.count({ where: { organizationId: DEMO_ORG_ID, action: 'agent.remove', userId: DEMO_USERS.admin.id } })).toBe(1)
    } finally {
      await after.$disconnect()
    }
    await context.close()
  })
})

describe('Developer pages', () => {
  it('are linked for site admins and refused to everyone else', async () => {
    const admin = await newPage(browser, portal.url)
    await signInAs(admin.context, portal, DEMO_USERS.admin.email)
    await admin.page.goto('/admin/site')
    await admin.page.getByRole('link', { name: 'Developer' }).click()
    await admin.page.getByRole('link', { name: /Mail outbox/ }).click()
    await admin.page.getByRole('heading', { name: 'Outbox' }).waitFor()
    await admin.context.close()

    const member = await newPage(browser, portal.url)
    await signInAs(member.context, portal, DEMO_USERS.member.email)
    await member.page.goto('/organization/list')
    expect(await member.page.getByRole('link', { name: 'Developer' }).count()).toBe(0)
    for (const path of ['/dev', '/dev/mail', '/dev/anything']) {
      const response = await member.page.goto(path)
      expect(response?.status(), path).toBe(403)
      await member.page.getByText('Access denied').waitFor()
    }
    await member.context.close()

    const anonymous = await newPage(browser, portal.url)
    for (const path of ['/dev', '/dev/mail']) expect((await anonymous.page.goto(path))?.status(), path).toBe(403)
    await anonymous.context.close()
  })
})
