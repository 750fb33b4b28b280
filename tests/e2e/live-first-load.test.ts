/**
 * A page's live stream after a full load (docs/benchmarks.md, Pages on phones): it no longer
 * reloads all the page's data the moment it opens. A quiet organization's agents list fetches
 * nothing more after hydration, and a change made between the server render and the stream's
 * opening still reaches the page (the server replays it), without a reload.
 */
import { expect, it } from 'vitest'
import { DEMO_ORG_ID, DEMO_USERS } from '../../prisma/seed-data'
import { browser, hydrated, newPage, portal, signInAs, withPortalAndBrowser } from './harness'

withPortalAndBrowser({ FLEET_READ_CACHE_MS: '5000' })

it('opens the live stream without reloading the page, and replays a change made before it opened', async () => {
  const { context, page } = await newPage(browser, portal.url)
  await signInAs(context, portal, DEMO_USERS.owner.email)

  const dataRequests: string[] = []
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.endsWith('.data')) dataRequests.push(r.url())
  })
  await page.goto(`/organization/${DEMO_ORG_ID}/agents`)
  await page.getByRole('heading', { name: 'Agents' }).waitFor()
  await page.waitForFunction(() => document.documentElement.dataset.live === 'open')
  await page.waitForTimeout(1500)
  // the filter options load on their own; the page's loaders do not run again
  expect(dataRequests.filter((u) => !u.includes('agent-facets'))).toEqual([])

  // hold the stream until another tab renamed the project: the overview was rendered before it
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/resources/events*', async (route) => {
    await held
    await route.continue()
  })
  await page.goto(`/organization/${DEMO_ORG_ID}/projects/demo-prj-main-stage0/overview`)
  await hydrated(page)
  const renamed = await page.request.post('/client/v1/project/update', { data: { organizationId: DEMO_ORG_ID, projectId: 'demo-prj-main-stage0', doc: { name: 'Renamed Main Stage' } }, headers: { Origin: portal.url } })
  expect(renamed.status()).toBe(200)
  await expect(page.getByText('Renamed Main Stage').count()).resolves.toBe(0)
  release()
  await page.getByText('Renamed Main Stage').first().waitFor({ timeout: 45_000 })
  await context.close()
})
