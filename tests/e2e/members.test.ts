import { type Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { DEMO_ORG_ID, DEMO_USERS } from '../../prisma/seed-data'
import { browser, newPage, portal, portalDb, signInAs, withPortalAndBrowser } from './harness'

withPortalAndBrowser()

const membersUrl = `/organization/${DEMO_ORG_ID}/members`

/** Opens the Members page and waits until it is hydrated (the form is driven by React state). */
async function openMembers(page: Page) {
  await page.goto(membersUrl)
  await page.getByRole('heading', { name: 'Members', exact: true }).waitFor()
  await page.waitForLoadState('networkidle')
}

async function addMember(page: Page, email: string, role: string) {
  const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Add Member' }) })
  const roleSelect = form.getByLabel('Role')
  await expect(roleSelect.isDisabled()).resolves.toBe(true)
  await form.getByLabel('Email').fill(email)
  await roleSelect.selectOption({ label: role })
  await form.getByRole('button', { name: 'Add Member' }).click()
}

async function latestInviteLink(email: string) {
  const db = await portalDb(portal)
  try {
    const mail = await db.outboxEmail.findFirstOrThrow({ where: { to: email, kind: 'invite' }, orderBy: { createdAt: 'desc' } })
    return new URL(mail.text.match(/https?:\/\/\S+\/invite\/\S+/)![0]).pathname
  } finally {
    await db.$disconnect()
  }
}

describe('members page', () => {
  it('adds a registered user, keeps the owner owner-capable, invites an unknown e-mail and revokes the invite', async () => {
    const db = await portalDb(portal)
    const newcomer = `newcomer-${Date.now()}@e2e.test`
    await db.user.create({ data: { email: newcomer, name: 'Nina Newcomer', emailVerified: true } })
    await db.$disconnect()

    const { context, page } = await newPage(browser, portal.url)
    await signInAs(context, portal, DEMO_USERS.owner.email)
    await openMembers(page)

    // A registered user is added directly and appears in the table.
    await addMember(page, newcomer, 'Organization Viewer')
    const members = page.getByRole('table', { name: 'Members' })
    await members.getByRole('cell', { name: newcomer }).waitFor()
    await expect(members.getByRole('row', { name: /Olivia Owner/ }).textContent()).resolves.toMatch(/Owner.*You/)

    // The owner's organization-level role must keep the owner permissions.
    await page.getByRole('button', { name: 'Show access rights of Olivia Owner' }).click()
    await page.getByLabel('Role on Organization').first().selectOption({ label: 'Organization Viewer' })
    const dialog = page.getByRole('dialog', { name: 'Role is not allowed' })
    await dialog.waitFor()
    await expect(dialog.textContent()).resolves.toContain(
      "Cannot assign 'Organization Viewer' role to the organization owner. An organization owner must have organization update permissions.",
    )
    await dialog.getByRole('button', { name: 'OK' }).click()

    // An unknown e-mail is offered an invite; Yes sends it and clears the form.
    const stranger = `stranger-${Date.now()}@e2e.test`
    await addMember(page, stranger, 'Organization Member')
    const confirm = page.getByRole('alertdialog', { name: 'User Not Registered' })
    await confirm.waitFor()
    await expect(confirm.textContent()).resolves.toContain(`No user exists for email ${stranger}. Do you want to invite them to sign up?`)
    await confirm.getByRole('button', { name: 'Yes' }).click()
    const invites = page.getByRole('table', { name: 'Invites' })
    await invites.getByRole('cell', { name: stranger }).waitFor()
    await expect(page.getByLabel('Email').inputValue()).resolves.toBe('')
    expect(await latestInviteLink(stranger)).toMatch(/^\/invite\/[\w-]{20}\/[\w-]+$/)

    // Revoke asks first, then the invite leaves the table.
    await invites.getByRole('row', { name: new RegExp(stranger) }).getByRole('button', { name: 'Revoke' }).click()
    const revoke = page.getByRole('alertdialog', { name: 'Revoke Invite' })
    await expect(revoke.textContent()).resolves.toContain(`Are you sure you want to revoke the invitation to ${stranger}?`)
    await revoke.getByRole('button', { name: 'Yes' }).click()
    await page.getByRole('cell', { name: stranger }).waitFor({ state: 'detached' })
    await context.close()
  })

  it('lets the invitee accept through the e-mail link and gives exactly the invited role', async () => {
    const owner = await newPage(browser, portal.url)
    await signInAs(owner.context, portal, DEMO_USERS.owner.email)
    await openMembers(owner.page)
    const invitee = `invitee-${Date.now()}@e2e.test`
    await addMember(owner.page, invitee, 'Organization Viewer')
    await owner.page.getByRole('alertdialog', { name: 'User Not Registered' }).getByRole('button', { name: 'Yes' }).click()
    await owner.page.getByRole('table', { name: 'Invites' }).getByRole('cell', { name: invitee }).waitFor()
    const link = await latestInviteLink(invitee)
    await owner.context.close()

    // Signed out, the link leads to sign-in with a way back.
    const guest = await newPage(browser, portal.url)
    await guest.page.goto(link)
    expect(new URL(guest.page.url()).pathname).toBe('/login')
    expect(new URL(guest.page.url()).searchParams.get('redirect')).toBe(link)

    // After signing up (account created and verified) the invitee accepts.
    const db = await portalDb(portal)
    await db.user.create({ data: { email: invitee, name: 'Ivan Invitee', emailVerified: true } })
    await db.$disconnect()
    await signInAs(guest.context, portal, invitee)
    await guest.page.goto(link)
    await guest.page.getByText('Demo Live Events').waitFor()
    await expect(guest.page.getByText('Organization Viewer').isVisible()).resolves.toBe(true)
    await guest.page.getByRole('button', { name: 'Accept' }).click()
    await guest.page.waitForURL((url) => url.pathname.startsWith(`/organization/${DEMO_ORG_ID}`))

    // A viewer sees the members but cannot add anyone, and the Activity log stays closed.
    await openMembers(guest.page)
    await guest.page.getByRole('table', { name: 'Members' }).getByRole('cell', { name: invitee }).waitFor()
    expect(await guest.page.getByRole('button', { name: 'Add Member' }).count()).toBe(0)
    await guest.page.goto(`/organization/${DEMO_ORG_ID}/activity`)
    await expect(guest.page.getByRole('heading', { name: 'Access denied' }).isVisible()).resolves.toBe(true)
    await guest.context.close()
  })
})

describe('user settings, Invites', () => {
  it('lists the invites the user sent, resends one with a fresh link and revokes it', async () => {
    const { context, page } = await newPage(browser, portal.url)
    await signInAs(context, portal, DEMO_USERS.owner.email)
    const recipient = `sent-${Date.now()}@e2e.test`
    const roles = await portalDb(portal).then(async (db) => {
      try {
        return await db.role.findFirstOrThrow({ where: { name: 'Organization Viewer' }, select: { id: true } })
      } finally {
        await db.$disconnect()
      }
    })
    const created = await page.request.post('/client/v1/organization/inviteCreate', { data: { organizationId: DEMO_ORG_ID, recipient, roleId: roles.id } })
    expect(created.status()).toBe(200)
    const firstLink = await latestInviteLink(recipient)

    await page.goto('/settings/invites')
    await page.waitForLoadState('networkidle')
    const sent = page.getByRole('table', { name: 'Sent invites' })
    const row = sent.getByRole('row', { name: new RegExp(recipient) })
    await row.waitFor()
    expect(await row.textContent()).toContain('Demo Live Events')
    expect(await row.textContent()).toContain('Organization Viewer')
    expect(await page.getByRole('heading', { name: 'Received invites' }).isVisible()).toBe(true)

    await row.getByRole('button', { name: 'Resend' }).click()
    await page.getByText('Invite resent').waitFor()
    await expect.poll(() => latestInviteLink(recipient)).not.toBe(firstLink)

    await row.getByRole('button', { name: 'Revoke' }).click()
    const revoke = page.getByRole('alertdialog', { name: 'Revoke Invite' })
    await expect(revoke.textContent()).resolves.toContain(`Are you sure you want to revoke the invitation to ${recipient}?`)
    await revoke.getByRole('button', { name: 'Yes' }).click()
    await row.waitFor({ state: 'detached' })
    await page.getByText('No pending invites').waitFor()
    await context.close()
  })
})
