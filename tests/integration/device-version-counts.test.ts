/**
 * DeviceVersionCount (the dashboard's and overview's device counts per system) is kept by SQLite
 * (or PL/pgSQL) triggers on Device: it must match the devices after inserts, version changes, moves, deletes
 * and a cascading system delete, whoever writes them, and the triggers must survive every migration.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { type UserActor } from '~/domain/actor'
import { dashboard } from '~/domain/fleet/dashboard.server'
import { projectOverview } from '~/domain/fleet/project.server'
import { isPostgres, prisma } from '~/utils/db.server'

let orgId: string
let projectId: string
let owner: UserActor
let systemA: string
let systemB: string

beforeAll(async () => {
  const user = await prisma.user.create({ data: { email: 'owner@device-version-counts.test', name: 'Owner', emailVerified: true } })
  orgId = (await prisma.organization.create({ data: { name: 'Counts Org', ownerId: user.id } })).id
  projectId = (await prisma.project.create({ data: { organizationId: orgId, name: 'Stage' } })).id
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: user.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: orgId } })
    await compileUserAcls(tx, user.id, orgId)
  })
  owner = { kind: 'user', userId: user.id, email: user.email, name: user.name, isSiteAdmin: false, ip: '', userAgent: '' }
  const agent = await prisma.agent.create({ data: { clientName: 'Counter', secretHash: 'x', organizationId: orgId, lastSeen: new Date() } })
  systemA = (await prisma.system.create({ data: { agentId: agent.id, key: 'a', projectId } })).id
  systemB = (await prisma.system.create({ data: { agentId: agent.id, key: 'b', projectId } })).id
})

/** The aggregate as stored, and as computed from the devices: they must always be equal. */
async function storedAndExpected() {
  const stored = await prisma.$queryRaw<{ systemId: string; component: string; product: string; software: string; firmware: string; count: bigint }[]>`
    SELECT "systemId", "component", "product", "versionSoftware" AS software, "versionFirmware" AS firmware, "count" FROM "DeviceVersionCount" ORDER BY 1, 2, 3, 4, 5`
  const expected = await prisma.$queryRaw<typeof stored>`
    SELECT "systemId", "component", "product", COALESCE("versionSoftware", '') AS software, COALESCE("versionFirmware", '') AS firmware, SUM("count") AS count
    FROM "Device" GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`
  const plain = (rows: typeof stored) => rows.map((r) => ({ ...r, count: Number(r.count) }))
  return { stored: plain(stored), expected: plain(expected) }
}

describe('device version counts', () => {
  it('exist as triggers after every migration', async () => {
    const triggers = isPostgres()
      ? await prisma.$queryRaw<{ name: string }[]>`SELECT "tgname"::text AS "name" FROM pg_trigger WHERE "tgrelid" = '"Device"'::regclass AND NOT "tgisinternal" ORDER BY 1`
      : await prisma.$queryRaw<{ name: string }[]>`SELECT "name" FROM sqlite_master WHERE "type" = 'trigger' AND "tbl_name" = 'Device' ORDER BY 1`
    expect(triggers.map((t) => t.name)).toEqual(['Device_versionCount_delete', 'Device_versionCount_insert', 'Device_versionCount_update'])
  })

  it('follow inserts, version changes, moves and deletes of devices, and feed the dashboard and overview', async () => {
    await prisma.device.createMany({
      data: [
        { systemId: systemA, key: 'proc', component: 'processor', product: 'P1', versionSoftware: '4.2' },
        { systemId: systemA, key: 't1', component: 'receiver', product: 'T1', versionFirmware: '1.1', count: 10 },
        { systemId: systemA, key: 't2', component: 'receiver', product: 'T1', versionFirmware: '1.1', count: 6 },
        { systemId: systemB, key: 't1', component: 'receiver', product: 'T1', versionFirmware: '1.0', count: 4 },
      ],
    })
    let { stored, expected } = await storedAndExpected()
    expect(stored).toEqual(expected)
    expect(stored.find((r) => r.systemId === systemA && r.component === 'receiver')?.count).toBe(16)

    // a firmware update on one group of tiles, a properties-only change, a move and a delete
    await prisma.device.update({ where: { systemId_key: { systemId: systemA, key: 't2' } }, data: { versionFirmware: '1.2' } })
    await prisma.device.update({ where: { systemId_key: { systemId: systemA, key: 'proc' } }, data: { properties: '{"inputSource":"SDI 1"}' } })
    await prisma.device.update({ where: { systemId_key: { systemId: systemB, key: 't1' } }, data: { systemId: systemA, key: 't3' } })
    await prisma.device.delete({ where: { systemId_key: { systemId: systemA, key: 'proc' } } })
    ;({ stored, expected } = await storedAndExpected())
    expect(stored).toEqual(expected)
    expect(stored.some((r) => r.component === 'processor')).toBe(false)

    // what a user sees: the dashboard's firmware panel and the overview's firmware chart
    const firmware = (await dashboard(owner, orgId, 'system')).versions.firmware
    expect(firmware).toEqual([
      { type: 'receiver', product: 'T1', version: '1.1', count: 10 },
      { type: 'receiver', product: 'T1', version: '1.2', count: 6 },
      { type: 'receiver', product: 'T1', version: '1.0', count: 4 },
    ])
    const overview = await projectOverview(owner, orgId, projectId)
    expect(overview.charts.devicesByVersionFirmware).toEqual([
      { key: '1.1', count: 10 },
      { key: '1.2', count: 6 },
      { key: '1.0', count: 4 },
    ])
    expect(overview.charts.devicesByVersionSoftware).toEqual([{ key: '(none)', count: 20 }])
  })

  it('go with their system when it is deleted', async () => {
    await prisma.system.delete({ where: { id: systemA } })
    const { stored, expected } = await storedAndExpected()
    expect(stored).toEqual(expected)
    expect(stored.some((r) => r.systemId === systemA)).toBe(false)
  })
})
