import { type Page } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { type Fleet } from '../../simulator/fleet'
import { DEMO_ORG_ID, DEMO_PASSWORD, DEMO_USERS } from '../../prisma/seed-data'
import { browser, newPage, portal, portalDb, signIn, signInAs, startEnrolledAgent, withPortalAndBrowser } from './harness'

withPortalAndBrowser()

const MAIN_STAGE = 'demo-prj-main-stage0'
const STAGE_LEFT = 'demo-prj-stage-left0'
const VIRTUAL_PRD = 'demo-prj-virtual-prd'
const PM_EMAIL = 'pm@project-member.e2e'
const SHOTS = process.env.PIXELFLEET_SCREENSHOTS
const org = `/organization/${DEMO_ORG_ID}`

let fleet: Fleet | undefined
afterAll(async () => {
  await fleet?.stop()
})

const shot = async (page: Page, name: string) => {
  if (!SHOTS) return
  const size = page.viewportSize()!
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.screenshot({ path: `${SHOTS}/${name}-1440.png`, fullPage: true })
  await page.setViewportSize({ width: 390, height: 844 })
  await page.screenshot({ path: `${SHOTS}/${name}-390.png`, fullPage: true })
  await page.setViewportSize(size)
}

/** The links of the sidebar's organization navigation, by their text. */
const sidebarLinks = (page: Page) => page.getByRole('navigation', { name: 'Organization' }).getByRole('link').allInnerTexts()

/**
 * A user whose only rights are project roles: Project Manager on Main Stage in the demo organization
 * (its sub-projects Stage Left and Stage Right inherit it) and Project Viewer on a project of a second
 * organization whose name sorts first, so the sidebar's fallback 'first organization' is the other one.
 */
async function projectOnlyMember() {
  const db = await portalDb(portal)
  try {
    const { passwordHash } = await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS.member.email } })
    const pm = await db.user.create({ data: { email: PM_EMAIL, name: 'Paula Project', emailVerified: true, passwordHash } })
    const other = await db.organization.create({ data: { name: 'Aardvark Rentals', ownerId: DEMO_USERS.owner.id } })
    const warehouse = await db.project.create({ data: { organizationId: other.id, name: 'Warehouse' } })
    const rights = [
      { organizationId: DEMO_ORG_ID, projectId: MAIN_STAGE, roleId: DEFAULT_ROLE_IDS.projectManager },
      { organizationId: other.id, projectId: warehouse.id, roleId: DEFAULT_ROLE_IDS.projectViewer },
    ]
    for (const r of rights) await db.accessRight.create({ data: { userId: pm.id, ...r } })
    return { pm, otherId: other.id }
  } finally {
    await db.$disconnect()
  }
}

/** Compiled ACLs are built by the portal's own code; recompile through the domain in the portal's database. */
async function recompile(userId: string, organizationIds: string[]) {
  const db = await portalDb(portal)
  try {
    const { compileUserAcls } = await import('~/domain/access/acl.server')
    await db.$transaction(async (tx) => {
      for (const id of organizationIds) await compileUserAcls(tx as never, userId, id)
    })
  } finally {
    await db.$disconnect()
  }
}

describe('a project-only member', () => {
  it('signs in, finds their projects from the card and the sidebar, sees the agents of their project, and is neither linked to nor let into the rest', async () => {
    const { pm, otherId } = await projectOnlyMember()
    await recompile(pm.id, [DEMO_ORG_ID, otherId])

    // An agent reporting to Stage Left (under Main Stage), enrolled by the owner.
    const owner = await newPage(browser, portal.url)
    await signInAs(owner.context, portal, DEMO_USERS.owner.email)
    await owner.page.goto('/about')
    fleet = await startEnrolledAgent(owner.page, portal.mqttPort, { projectId: STAGE_LEFT, seed: 'project-member', interval: '2s', scenario: 'tempHigh' })
    const [agent] = fleet.agents
    await owner.context.close()

    const { context, page } = await newPage(browser, portal.url)
    await signIn(page, PM_EMAIL, DEMO_PASSWORD)
    await page.waitForURL('**/organization/list')

    // Cards count what this user can see: Main Stage and its two sub-projects, the one agent; no member count or link.
    const card = page.getByTestId('organization-card').filter({ hasText: 'Demo Live Events' })
    await expect(card.getByTestId('count-projects').innerText()).resolves.toMatch(/^3\s+Projects$/)
    await expect(card.getByTestId('count-agents').innerText()).resolves.toMatch(/^1\s+Agents$/)
    await expect(card.getByTestId('count-members').innerText()).resolves.toMatch(/^—\s+Members$/)
    expect(await card.getByRole('link', { name: /Members/ }).count()).toBe(0)
    // Nothing visited yet: the sidebar falls to the first organization by name.
    await expect(page.getByRole('button', { name: 'Switch organization' }).innerText()).resolves.toBe('Aardvark Rentals')
    await shot(page, 'project-member-organizations')

    // The card opens the projects page: their project tree only.
    await card.getByRole('link', { name: /Demo Live Events/ }).click()
    await page.waitForURL(`**${org}/projects`)
    const projects = page.getByRole('main')
    await projects.getByRole('link', { name: 'Main Stage', exact: true }).waitFor()
    await projects.getByRole('link', { name: 'Stage Left Wall', exact: true }).waitFor()
    await projects.getByRole('link', { name: 'Stage Right Wall', exact: true }).waitFor()
    expect(await projects.getByText('Virtual Production').count()).toBe(0)
    await expect(projects.getByText(/Systems \d+ \/ \d+ unassigned/).innerText()).resolves.toBe('Systems 1 / 0 unassigned')
    expect(await page.getByText('Access denied').count()).toBe(0)

    // Only the sidebar items they can use.
    expect(await sidebarLinks(page)).toEqual(['Projects', 'Agents', 'Settings'])
    await shot(page, 'project-member-projects')

    // The last visited organization is remembered: /about, /settings and the list show it in the sidebar.
    for (const path of ['/about', '/settings/profile', '/organization/list']) {
      await page.goto(path)
      await expect(page.getByRole('button', { name: 'Switch organization' }).innerText()).resolves.toBe('Demo Live Events')
    }
    const db = await portalDb(portal)
    expect((await db.user.findUniqueOrThrow({ where: { id: pm.id } })).lastOrganizationId).toBe(DEMO_ORG_ID)
    await db.$disconnect()

    // The sidebar's Projects link, then the project, then the agents of that project.
    await page.goto('/about')
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Projects' }).click()
    await page.waitForURL(`**${org}/projects`)
    await page.getByRole('main').getByRole('link', { name: 'Stage Left Wall', exact: true }).click()
    await page.waitForURL(`**${org}/projects/${STAGE_LEFT}/agents`)
    await page.getByRole('main').getByText(agent.site.name).first().waitFor({ timeout: 45_000 })
    await page.goto(`${org}/agents`)
    await page.getByRole('main').getByRole('link', { name: agent.site.name, exact: true }).waitFor({ timeout: 45_000 })

    // Every sidebar item they were shown opens (Settings too: general, roles, projects, leave).
    await page.goto(`${org}/settings`)
    await page.waitForURL(`**${org}/settings/general`)
    await page.getByRole('main').getByText('Demo Live Events').first().waitFor()
    expect(await page.getByText('Access denied').count()).toBe(0)

    // The pages they must not see are refused (and were not linked above).
    for (const path of [`${org}/members`, `${org}/activity`, `${org}/notes`, `${org}/projects/${VIRTUAL_PRD}/agents`]) {
      await page.goto(path)
      await page.getByText('Access denied').first().waitFor()
    }

    // Bare /a behaves as '/', not a redirect loop.
    const response = await page.goto('/a')
    expect(response?.ok()).toBe(true)
    expect(new URL(page.url()).pathname).toMatch(/^\/organization\//)
    await context.close()
  })
})
