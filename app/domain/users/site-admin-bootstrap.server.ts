import { z } from 'zod'
import { systemActor } from '../actor'
import { audit } from '../audit/audit.server'
import { emailField, passwordField } from '../auth/account.server'
import { hashPassword } from '../auth/crypto.server'
import { parseInput } from '../parse-input'
import { prisma } from '~/utils/db.server'

const input = z.object({
  email: emailField,
  name: z.string({ required_error: 'Name is required' }).trim().min(1, 'Name is required').max(200, 'Name is too long'),
  password: passwordField,
})

/**
 * The first site administrator of a fresh installation (no admin exists yet to invite one):
 * `pixelfleet admin create-user` and ADMIN_EMAIL/ADMIN_PASSWORD at start call this with direct
 * database access. An existing account with that address is made a site admin and gets the
 * password; the address counts as verified (the operator vouches for it). Audited as the system.
 */
export async function createSiteAdmin(raw: z.input<typeof input>, via: string) {
  const { email, name, password } = parseInput(input, raw)
  const passwordHash = await hashPassword(password)
  return prisma.$transaction(async (tx) => {
    const existing = await tx.user.findUnique({ where: { email } })
    const user = existing
      ? await tx.user.update({ where: { id: existing.id }, data: { isAdmin: true, emailVerified: true, passwordHash, provider: 'password', disabled: false } })
      : await tx.user.create({ data: { email, name, passwordHash, isAdmin: true, emailVerified: true, provider: 'password' } })
    await audit(tx, systemActor(via), {
      action: existing ? 'user.makeSiteAdmin' : 'user.createSiteAdmin',
      message: existing ? `User ${email} made a site administrator` : `Site administrator ${email} created`,
    })
    return { id: user.id, email: user.email, created: !existing }
  })
}
