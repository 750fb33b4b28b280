/** Issue 10 item 9: CSV formula injection in the web agents export and the CLI's CSV output. */
import { describe, expect, it } from 'vitest'
import { agentsListCsv } from '../../cli/commands/agents'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { createSession } from '~/domain/auth/session.server'
import { loader as csvLoader } from '~/routes/resources.agents-csv'
import { commitSessionCookie } from '~/utils/auth.server'
import { csvCell, csvLine } from '~/utils/csv'
import { prisma } from '~/utils/db.server'

const HOSTILE = ['=HYPERLINK("http://evil.example","x")', '+1+cmd|/C calc!A0', '-2+3', '@SUM(A1:A9)', '\t=1+1', '\r=1+1']

describe('CSV formula injection', () => {
  it('prefixes cells that a spreadsheet would run as a formula with a single quote', () => {
    expect(csvCell('=1+1')).toBe("'=1+1")
    expect(csvCell('+1')).toBe("'+1")
    expect(csvCell('-1')).toBe("'-1")
    expect(csvCell('@x')).toBe("'@x")
    expect(csvCell('\tx')).toBe("'\tx")
    expect(csvCell('\rx')).toBe(`"'\rx"`)
    expect(csvCell('=HYPERLINK("a","b")')).toBe(`"'=HYPERLINK(""a"",""b"")"`)
    // Ordinary values stay as they are.
    expect(csvCell('LED Wall 1')).toBe('LED Wall 1')
    expect(csvCell('a=b')).toBe('a=b')
    expect(csvCell(12)).toBe('12')
    expect(csvCell(null)).toBe('')
    expect(csvLine(['a,b', 'c'])).toBe('"a,b",c')
    for (const value of HOSTILE) expect(csvCell(value)).toMatch(/^"?'/)
  })

  it('exports hostile agent names and products from the web export as text', async () => {
    const owner = await prisma.user.create({ data: { email: 'owner@csv.test', name: 'Owner', emailVerified: true } })
    const org = await prisma.organization.create({ data: { name: 'CSV Org', ownerId: owner.id } })
    await prisma.$transaction(async (tx) => {
      await tx.accessRight.create({ data: { userId: owner.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: org.id } })
      await compileUserAcls(tx, owner.id)
    })
    for (const [i, name] of HOSTILE.entries()) {
      await prisma.agent.create({ data: { clientName: name, secretHash: 'x', organizationId: org.id, product: i === 0 ? '@Product' : 'P', serial: `S${i}` } })
    }
    const session = await createSession(owner.id, { ip: '10.0.0.1', userAgent: 'vitest' })
    const cookie = (await commitSessionCookie(session.token, session.expiresAt)).split(';')[0]!
    const columns = Buffer.from(JSON.stringify({ name: true, product: true })).toString('base64')
    const request = new Request(`http://portal.test/resources/agents-csv?organizationId=${org.id}&columns=${columns}`, { headers: { cookie } })
    const response = (await csvLoader({ request, params: {}, context: {} })) as Response
    expect(response.status).toBe(200)
    const text = await response.text()
    const cells = text.split('\r\n').flatMap((line) => line.split(','))
    for (const cell of cells) expect(cell.replace(/^"/, ''), `cell ${JSON.stringify(cell)}`).not.toMatch(/^[=+\-@\t\r]/)
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example""`)
    expect(text).toContain("'@Product")
  })

  it('prints formula-safe cells in the CLI CSV output', () => {
    const agent = { id: 'a1', name: '=cmd|calc', product: '+P', serial: '-1', version: '@v', isConnected: true, lastSeen: null, systems: [] }
    const [header, row] = agentsListCsv([agent]).split('\r\n')
    expect(header).toBe('ID,Name,Product,Serial,Version,Connected,Last Seen,Systems Assigned,Systems Total')
    expect(row).toBe("a1,'=cmd|calc,'+P,'-1,'@v,Connected,Never,0,0")
  })
})
