import { describe, expect, it } from 'vitest'
import { DEMO_ORG_ID, DEMO_USERS } from '../../prisma/seed-data'
import { browser, newPage, portal, portalDb, signInAs, withPortalAndBrowser } from './harness'

withPortalAndBrowser()

describe('API tokens in user settings', () => {
  it('shows a new token once, lets it call the API, and revokes it after confirmation', async () => {
    const { context, page } = await newPage(browser, portal.url)
    await signInAs(context, portal, DEMO_USERS.member.email)
    await page.goto('/settings/tokens')
    await page.waitForLoadState('networkidle')
    await page.getByText('No API tokens').waitFor()

    await page.getByRole('button', { name: 'New Token' }).click()
    await page.getByLabel('Name').fill('Nightly export')
    await page.getByRole('button', { name: 'Create' }).click()
    const token = await page.getByLabel('New token').inputValue()
    expect(token).toMatch(/^pft_/)
    await page.getByRole('button', { name: 'Done' }).click()

    const row = page.getByRole('row', { name: /Nightly export/ })
    await row.waitFor()
    expect(await row.textContent()).not.toContain(token)
    // Opening the dialog again does not show the old token.
    await page.getByRole('button', { name: 'New Token' }).click()
    expect(await page.getByLabel('New token').count()).toBe(0)
    await page.keyboard.press('Escape')

    const call = () => fetch(`${portal.url}/client/v1/auth/authorized`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: '{}' })
    expect((await call()).status).toBe(200)

    await row.getByRole('button', { name: 'Revoke' }).click()
    await page.getByText("Are you sure you want to revoke the token 'Nightly export'?").waitFor()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click()
    await page.getByText('No API tokens').waitFor()
    await page.getByTestId('token-ended').getByText(/^Ended: revoked, /).waitFor()
    expect((await call()).status).toBe(401)
    await context.close()
  })
})

describe('Admin utility: agent self-enroll targets', () => {
  it('saves toggled organization/project pairs a second after the last change', async () => {
    const { context, page } = await newPage(browser, portal.url)
    await signInAs(context, portal, DEMO_USERS.admin.email)
    await page.goto('/admin/utility')
    await page.waitForLoadState('networkidle')
    await page.getByRole('heading', { name: 'Utility Functions' }).waitFor()

    const target = page.getByLabel('Demo Live Events / Virtual Production / Volume A', { exact: true })
    await target.check()
    await page.getByLabel('Demo Live Events / Main Stage', { exact: true }).check()
    await page.getByLabel('Demo Live Events / Main Stage', { exact: true }).uncheck()
    await expect(page.getByTestId('self-enroll-state').textContent()).resolves.toBe('Unsaved')
    await page.getByTestId('self-enroll-state').getByText('Saved', { exact: true }).waitFor()

    const db = await portalDb(portal)
    try {
      const settings = await db.platformSettings.findUniqueOrThrow({ where: { id: 'platform' } })
      expect(JSON.parse(settings.selfEnrollTargets)).toEqual([{ organizationId: DEMO_ORG_ID, projectId: 'demo-prj-volume-a000' }])
    } finally {
      await db.$disconnect()
    }
    await page.reload()
    await expect(page.getByLabel('Demo Live Events / Virtual Production / Volume A', { exact: true }).isChecked()).resolves.toBe(true)
    await expect(page.getByLabel('Demo Live Events / Main Stage', { exact: true }).isChecked()).resolves.toBe(false)
    await page.getByTestId('self-enroll-on').getByText('Switched on: Demo Live Events / Virtual Production / Volume A').waitFor()

    // the server answers a search as one types; a pair the search hides stays switched on when another is saved
    await page.getByRole('combobox', { name: 'Search organizations and projects' }).fill('main st')
    await page.getByLabel('Demo Live Events / Virtual Production / Volume A', { exact: true }).waitFor({ state: 'detached' })
    await page.getByLabel('Demo Live Events / Main Stage', { exact: true }).check()
    await page.getByTestId('self-enroll-state').getByText('Saved', { exact: true }).waitFor()
    const db2 = await portalDb(portal)
    try {
      const settings = await db2.platformSettings.findUniqueOrThrow({ where: { id: 'platform' } })
      expect(JSON.parse(settings.selfEnrollTargets)).toEqual([
        { organizationId: DEMO_ORG_ID, projectId: 'demo-prj-volume-a000' },
        { organizationId: DEMO_ORG_ID, projectId: 'demo-prj-main-stage0' },
      ])
    } finally {
      await db2.$disconnect()
    }
    await page.getByRole('combobox', { name: 'Search organizations and projects' }).fill('no such project')
    await page.getByText('No match').waitFor()
    await context.close()
  })
})
