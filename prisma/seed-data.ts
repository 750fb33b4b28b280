import { compileUserAcls } from '../app/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '../app/domain/access/catalogue'
import { hashPassword } from '../app/domain/auth/crypto.server'
import { prisma } from '../app/utils/db.server'

/** Demo accounts (README.md lists them). One password for all, meeting the password rules. */
export const DEMO_PASSWORD = 'Pixelfleet-demo-1'
export const DEMO_ORG_ID = 'demo-org-live-events'
export const DEMO_USERS = {
  admin: { id: 'demo-user-site-admin', email: 'admin@pixelfleet.io', name: 'Site Admin', isAdmin: true },
  owner: { id: 'demo-user-org-owner0', email: 'owner@demo.pixelfleet.io', name: 'Olivia Owner', isAdmin: false },
  member: { id: 'demo-user-org-member', email: 'member@demo.pixelfleet.io', name: 'Mark Member', isAdmin: false },
  viewer: { id: 'demo-user-org-viewer', email: 'viewer@demo.pixelfleet.io', name: 'Vera Viewer', isAdmin: false },
} as const

export const DEMO_PROJECTS = [
  { id: 'demo-prj-main-stage0', name: 'Main Stage', description: 'Arena main stage LED walls', parentId: null },
  { id: 'demo-prj-stage-left0', name: 'Stage Left Wall', description: '', parentId: 'demo-prj-main-stage0' },
  { id: 'demo-prj-stage-right', name: 'Stage Right Wall', description: '', parentId: 'demo-prj-main-stage0' },
  { id: 'demo-prj-virtual-prd', name: 'Virtual Production', description: 'XR volume and ceiling', parentId: null },
  { id: 'demo-prj-volume-a000', name: 'Volume A', description: 'Curved LED volume', parentId: 'demo-prj-virtual-prd' },
] as const

/** Idempotent: creates what is missing and leaves everything else as it is. */
export async function seedDemo() {
  if (await prisma.organization.findUnique({ where: { id: DEMO_ORG_ID } })) return
  const passwordHash = await hashPassword(DEMO_PASSWORD)
  await prisma.$transaction(async (tx) => {
    for (const u of Object.values(DEMO_USERS)) {
      await tx.user.upsert({
        where: { email: u.email },
        create: { id: u.id, email: u.email, name: u.name, isAdmin: u.isAdmin, emailVerified: true, passwordHash },
        update: {},
      })
    }
    const owner = await tx.user.findUniqueOrThrow({ where: { email: DEMO_USERS.owner.email } })
    await tx.organization.create({
      data: { id: DEMO_ORG_ID, name: 'Demo Live Events', description: 'Touring LED and XR stages', ownerId: owner.id, billingStatus: 'internal' },
    })
    for (const p of DEMO_PROJECTS) {
      await tx.project.create({ data: { ...p, organizationId: DEMO_ORG_ID } })
    }
    const grants: [keyof typeof DEMO_USERS, string][] = [
      ['owner', DEFAULT_ROLE_IDS.orgAdmin],
      ['member', DEFAULT_ROLE_IDS.orgMember],
      ['viewer', DEFAULT_ROLE_IDS.orgViewer],
    ]
    for (const [key, roleId] of grants) {
      const user = await tx.user.findUniqueOrThrow({ where: { email: DEMO_USERS[key].email } })
      await tx.accessRight.create({ data: { userId: user.id, roleId, organizationId: DEMO_ORG_ID } })
      await compileUserAcls(tx, user.id, DEMO_ORG_ID)
    }
    await tx.auditRecord.create({
      data: { organizationId: DEMO_ORG_ID, userName: 'system (seed)', action: 'organization.create', message: 'Demo organization created' },
    })
    // A busy PostgreSQL server can need more than the default 5 s for the ACL compilation of every demo user.
  }, { timeout: 60_000 })
}
