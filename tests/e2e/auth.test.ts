import { type Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { DEMO_PASSWORD, DEMO_USERS } from '../../prisma/seed-data'
import { browser, newPage, portal, signIn, signInAs, withPortalAndBrowser } from './harness'

withPortalAndBrowser()

const NEW_PASSWORD = 'Fresh-start-42'

/** The outbox (/dev/mail) is for site admins only: a separate admin browser context reads it. */
let adminPage: Page | undefined
async function outboxPage(to: string) {
  if (!adminPage) {
    const { context, page } = await newPage(browser, portal.url)
    await signInAs(context, portal, DEMO_USERS.admin.email)
    adminPage = page
  }
  await adminPage.goto(`/dev/mail?to=${encodeURIComponent(to)}`)
  return adminPage
}

/**
 * Opens the newest outbox e-mail to `to` on the developer page and follows its link containing
 * `path` in `page`, on the portal's own origin (the mail names PUBLIC_URL's host, which here is localhost).
 */
async function followMailedLink(page: Page, to: string, path: '/auth/emailVerify/' | '/auth/passwordReset/') {
  const outbox = await outboxPage(to)
  const href = await outbox.locator(`[data-testid="outbox-mail"] a[href*="${path}"]`).first().getAttribute('href')
  const link = new URL(href!)
  await page.goto(link.pathname + link.search)
}

const outboxCount = async (_page: Page, to: string) => (await outboxPage(to)).getByTestId('outbox-mail').count()

describe('sign-in and account e-mail flows in the browser', () => {
  it('creates an account, is refused until verified, resends, verifies through the outbox link, signs in and out', async () => {
    const { context, page } = await newPage(browser, portal.url)
    const email = `newcomer.${Date.now()}@e2e.test`
    await page.goto('/login')
    expect(await page.title()).toBe('Sign in or create an account')
    await page.getByRole('button', { name: 'Sign up' }).click()
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Name').fill('New Comer')
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD)
    const save = page.getByRole('button', { name: 'Save' })
    expect(await save.isDisabled()).toBe(true)
    await expect(page.getByText('New password and confirmation must match').isVisible()).resolves.toBe(true)
    await page.getByLabel('Confirm Password').fill(NEW_PASSWORD)
    expect(await save.isEnabled()).toBe(true)
    await save.click()
    await page.getByText('If an account did not already exist, one was created and a verification email was sent').waitFor()

    // signing in before verifying shows the resend box instead of the reset link
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD)
    await page.getByRole('button', { name: 'Login' }).click()
    await page.getByText('(error code: mvr-auth/unverified)').waitFor()
    expect(await page.getByRole('button', { name: /Reset password/ }).count()).toBe(0)
    await page.getByRole('button', { name: 'resend verification' }).click()
    await page.getByText('Email verification link sent').waitFor()
    expect(await outboxCount(page, email)).toBe(2)

    await followMailedLink(page, email, '/auth/emailVerify/')
    // Opening the link only shows the confirmation (mail scanners fetch links too); the button verifies.
    await page.getByRole('button', { name: 'Verify my e-mail' }).click()
    await page.getByText('Your email address was verified.').waitFor()
    expect(new URL(page.url()).pathname).toBe(`/login/email/${encodeURIComponent(email)}`)
    expect(await page.getByLabel('Email').inputValue()).toBe(email)
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD)
    await page.getByRole('button', { name: 'Login' }).click()
    await page.waitForURL((url) => !url.pathname.startsWith('/login'))

    // The guard rule (spec 02 section 2): a signed-in user opening /login without a redirect goes to '/'
    // (and on to the organization), with a redirect target to that target; no sign-in form either way.
    await page.goto('/login')
    await page.waitForURL((url) => url.pathname.startsWith('/organization'))
    await page.goto('/login?redirect=%2Fsettings%2Fpreferences')
    expect(new URL(page.url()).pathname).toBe('/settings/preferences')
    await page.getByRole('button', { name: 'My Account' }).click()
    await page.getByRole('menuitem', { name: 'Sign Out' }).click()
    await page.getByRole('button', { name: 'Login' }).waitFor()
    await page.goto('/settings/profile')
    expect(new URL(page.url()).pathname).toBe('/login')
    await context.close()
  })

  it('shows a failed sign-in with its message and error code', async () => {
    const { context, page } = await newPage(browser, portal.url)
    await page.goto('/login')
    await page.getByRole('button', { name: 'Login' }).click()
    await expect(page.getByText('Enter a valid email address').isVisible()).resolves.toBe(true)
    await page.getByLabel('Email').fill(DEMO_USERS.member.email)
    await page.getByLabel('Password', { exact: true }).fill('Not-the-password-1')
    await page.getByRole('button', { name: 'Login' }).click()
    await page.getByText('login failed').waitFor()
    expect(await page.getByText('Incorrect email address or password').isVisible()).toBe(true)
    expect(await page.getByText('(error code: auth/invalid-credential)').isVisible()).toBe(true)
    expect(new URL(page.url()).pathname).toBe('/login')
    await context.close()
  })

  it('resets a password through the confirmation, the mailed link and the reset form', async () => {
    const { context, page } = await newPage(browser, portal.url)
    const email = DEMO_USERS.viewer.email
    await page.goto('/login')
    await page.getByRole('button', { name: /Reset password/ }).click()
    await expect(page.getByText('Enter a valid email address').isVisible()).resolves.toBe(true)
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: /Reset password/ }).click()
    const dialog = page.getByRole('alertdialog')
    await expect(dialog.getByText('Reset Password').isVisible()).resolves.toBe(true)
    expect(await dialog.getByText('A password reset link will be sent to the email address.').isVisible()).toBe(true)
    await dialog.getByRole('button', { name: 'OK' }).click()
    await page.getByText('If the account exists, then a reset email was sent').waitFor()

    await followMailedLink(page, email, '/auth/passwordReset/')
    await page.getByText('Password Reset').first().waitFor()
    expect(await page.getByLabel('Email').inputValue()).toBe(email)
    await page.getByLabel('New Password').fill(NEW_PASSWORD)
    await page.getByLabel('Confirm Password').fill(NEW_PASSWORD)
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Your password was updated.').waitFor()

    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD)
    await page.getByRole('button', { name: 'Login' }).click()
    await page.getByText('(error code: auth/invalid-credential)').waitFor()
    await signIn(page, email, NEW_PASSWORD)

    // the used link cannot be used again
    await followMailedLink(page, email, '/auth/passwordReset/')
    await page.getByText('Unable to reset password').waitFor()
    expect(await page.getByText('(error code: auth/invalid-action-code)').isVisible()).toBe(true)
    await context.close()
  })

  it('sends a signed-out visitor to sign in and back to the page they asked for', async () => {
    const { context, page } = await newPage(browser, portal.url)
    await page.goto('/organization/list')
    const url = new URL(page.url())
    expect(url.pathname).toBe('/login')
    expect(url.searchParams.get('redirect')).toBe('/organization/list')
    await page.getByLabel('Email').fill(DEMO_USERS.member.email)
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD)
    await page.getByRole('button', { name: 'Login' }).click()
    await page.waitForURL((u) => u.pathname === '/organization/list')
    // a signed-in user opening /login with a redirect target goes straight there
    await page.goto('/login?redirect=%2Fsettings%2Fprofile')
    expect(new URL(page.url()).pathname).toBe('/settings/profile')
    await context.close()
  })

  it('changes the name on the profile and signs out after an e-mail change', async () => {
    const { context, page } = await newPage(browser, portal.url)
    await signIn(page, DEMO_USERS.owner.email, DEMO_PASSWORD)
    await page.goto('/settings/profile')
    await expect(page.getByText('Verified', { exact: true }).isVisible()).resolves.toBe(true)
    await page.getByRole('button', { name: 'Edit Full name' }).click()
    await page.getByLabel('Full name').fill('Olivia Renamed')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Name changed').waitFor()
    await page.getByTestId('name-value').filter({ hasText: 'Olivia Renamed' }).waitFor()

    const newEmail = `olivia.${Date.now()}@e2e.test`
    await page.getByRole('button', { name: 'Change', exact: true }).click()
    const dialog = page.getByRole('dialog')
    await expect(dialog.getByText('You will be logged out immediately').isVisible()).resolves.toBe(true)
    const submit = dialog.getByRole('button', { name: 'Change Email' })
    await dialog.getByLabel('New Email').fill(newEmail)
    expect(await submit.isDisabled()).toBe(true)
    await dialog.getByLabel('Current Password').fill(DEMO_PASSWORD)
    await submit.click()
    await page.waitForURL((u) => u.pathname === `/login/email/${encodeURIComponent(newEmail)}`)
    await page.getByText('Email change request sent').first().waitFor()
    await page.goto('/settings/profile')
    expect(new URL(page.url()).pathname).toBe('/login')
    expect(await outboxCount(page, newEmail)).toBe(1)
    await context.close()
  })
})
