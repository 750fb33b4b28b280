import { describe, expect, it } from 'vitest'
import { DEMO_USERS } from '../../prisma/seed-data'
import { browser, newPage, portal, portalDb, signInAs, withPortalAndBrowser } from './harness'

withPortalAndBrowser()

describe('organizations and projects', () => {
  it('owner creates an organization, a project and a sub-project, renames it inline and deletes the tree', async () => {
    const { context, page } = await newPage(browser, portal.url)
    await signInAs(context, portal, DEMO_USERS.owner.email)

    // Organization list: the demo organization card, then sort by project count (saved to the profile).
    await page.goto('/organization/list')
    await page.getByTestId('organization-card').filter({ hasText: 'Demo Live Events' }).waitFor()
    await page.getByRole('button', { name: 'Sort: Name' }).click()
    await page.getByRole('button', { name: 'Sort: Project Count' }).waitFor()
    const db = await portalDb(portal)
    try {
      await expect
        .poll(async () => (await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS.owner.email } })).preferenceOrgIndexSort, { timeout: 30_000 })
        .toBe('projectCount:asc')
    } finally {
      await db.$disconnect()
    }

    // Create organization: an empty name is refused under the field, then it is created.
    await page.getByRole('link', { name: 'Create Organization' }).click()
    await page.waitForURL('**/organization/create')
    await page.getByRole('button', { name: 'Create' }).click()
    await page.getByText('Organization name is required').waitFor()
    await page.getByLabel('Name').fill('E2E Touring')
    await page.getByRole('button', { name: 'Create' }).click()
    await page.waitForURL(/\/organization\/[A-Za-z0-9_-]{20}\/projects$/)
    const organizationId = new URL(page.url()).pathname.split('/')[2]
    await page.getByText('No Projects Available').waitFor()

    // New Project, then a sub-project through the row action.
    await page.getByRole('button', { name: 'New Project' }).click()
    await page.getByRole('dialog', { name: 'Project Name' }).getByLabel('Name').fill('Arena')
    await page.getByRole('dialog', { name: 'Project Name' }).getByRole('button', { name: 'Create' }).click()
    await page.getByText('Project created').waitFor()
    await page.locator('[data-testid="project-row"][data-project="Arena"]').waitFor()
    await page.getByRole('button', { name: 'Add sub-project to Arena' }).click()
    await page.getByRole('dialog', { name: 'Project Name' }).getByLabel('Name').fill('Arena Left')
    await page.getByRole('dialog', { name: 'Project Name' }).getByRole('button', { name: 'Create' }).click()
    await page.locator('[data-testid="project-row"][data-project="Arena Left"]').waitFor()

    // Rename the sub-project inline on its Settings tab (the row's More menu; the gear icon opens the
    // project dialog instead); the breadcrumb shows the parent chain.
    await page.getByRole('button', { name: 'More for Arena Left' }).click()
    await page.getByRole('menuitem', { name: 'Settings' }).click()
    await page.waitForURL(/\/projects\/[^/]+\/settings$/)
    await page.getByRole('button', { name: 'Edit Name' }).click()
    await page.getByLabel('Name').fill('Arena Left Wall')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Project name updated').waitFor()
    const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' })
    await breadcrumb.getByText('Arena Left Wall').waitFor()
    await expect(breadcrumb.getByRole('link', { name: 'Arena', exact: true }).isVisible()).resolves.toBe(true)
    await expect(page.getByTestId('name-value').textContent()).resolves.toBe('Arena Left Wall')

    // Delete the parent from the list with the confirmation: the sub-project goes too.
    await page.goto(`/organization/${organizationId}/projects`)
    await page.locator('[data-testid="project-row"][data-project="Arena Left Wall"]').waitFor()
    await page.getByRole('button', { name: 'Delete Arena', exact: true }).click()
    const confirm = page.getByRole('alertdialog')
    await expect(confirm.textContent()).resolves.toContain("Are you sure you want to delete project 'Arena'?")
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.getByText('No Projects Available').waitFor()
    const check = await portalDb(portal)
    try {
      expect(await check.project.count({ where: { organizationId } })).toBe(0)
      expect(await check.organization.findUniqueOrThrow({ where: { id: organizationId } })).toMatchObject({ name: 'E2E Touring' })
    } finally {
      await check.$disconnect()
    }
    await context.close()
  })
})
