import { z } from 'zod'
import { type Actor } from '../actor'
import { getOrganizationAccess, requireOrganizationPermission } from '../access/access.server'
import { compileUserAcls } from '../access/acl.server'
import { Scope } from '../access/catalogue'
import { audit } from '../audit/audit.server'
import { normalizeEmail } from '../auth/account.server'
import { randomToken, sha256 } from '../auth/crypto.server'
import { isValidEmail } from '../auth/password-rules'
import { DomainError, notFound, notLoggedIn } from '../errors'
import { requireAccountWrite } from '../auth/token-scope'
import { emitChange } from '../events/bus.server'
import { sendMail } from '../mail/mail.server'
import { loadRulesContext, requireMemberRole } from '../members/members.server'
import { parseInput } from '../parse-input'
import { mayAssignRole } from '../roles/role-rules.server'
import { prisma, parseJson, type Tx } from '~/utils/db.server'
import { getConfig } from '~/utils/env.server'

export const INVITE_STATUS = { active: 'active', accepted: 'accepted', declined: 'declined', revoked: 'revoked' } as const

const inviteLink = (inviteId: string, code: string) => `${getConfig().publicUrl}/invite/${inviteId}/${code}`
const lastSent = (sent: string) => parseJson<string[]>(sent, []).at(-1) ?? null

/** The invite e-mail. The code travels only in the link; the database keeps its hash. */
async function sendInviteMail(invite: { id: string; recipient: string }, code: string, organizationName: string, senderName: string) {
  const link = inviteLink(invite.id, code)
  await sendMail({
    to: invite.recipient,
    kind: 'invite',
    subject: `You are invited to join ${organizationName} on Pixelfleet`,
    text:
      `${senderName} invited you to join the organization "${organizationName}" on Pixelfleet.\n\n` +
      `Open this link to accept or decline the invitation (sign in or create an account with this e-mail address first):\n${link}\n`,
  })
}

export const createInviteInput = z.object({
  organizationId: z.string().min(1),
  recipient: z
    .string()
    .transform(normalizeEmail)
    .refine((e) => e.length > 0 && isValidEmail(e), 'Incorrect email address format'),
  roleId: z.string().trim().min(1, 'Missing user role'),
  projects: z.array(z.string().min(1)).max(200).default([]),
  projectRoleId: z.string().trim().optional(),
})

/** Invites an e-mail address (registered or not) with an organization role and optional project roles. */
export async function createOrganizationInvite(actor: Actor, raw: z.input<typeof createInviteInput>) {
  const input = parseInput(createInviteInput, raw)
  if (actor.kind !== 'user') throw notLoggedIn()
  const code = randomToken()
  const invite = await prisma.$transaction(async (tx) => {
    const ctx = await loadRulesContext(tx, actor, input.organizationId)
    ctx.access.require('org.user.invite')
    const role = requireMemberRole(ctx, input.roleId)
    let projectRoleId: string | null = null
    if (input.projects.length > 0) {
      const projectRole = ctx.roles.find((r) => r.id === input.projectRoleId && r.resourceType === Scope.Project)
      if (!projectRole || !input.projects.every((projectId) => mayAssignRole(ctx.access, ctx.held, projectRole, projectId))) {
        throw new DomainError('invalid-argument', 'Missing project role', 400, [{ path: 'projectRoleId', message: 'Missing project role' }])
      }
      const found = await tx.project.count({ where: { organizationId: input.organizationId, id: { in: input.projects } } })
      if (found !== new Set(input.projects).size) throw notFound('Project not found')
      projectRoleId = projectRole.id
    }
    const pending = await tx.invite.findFirst({ where: { organizationId: input.organizationId, recipient: input.recipient, status: INVITE_STATUS.active } })
    if (pending) throw new DomainError('already-exists', `An invitation to ${input.recipient} is already pending`, 409)
    const created = await tx.invite.create({
      data: {
        organizationId: input.organizationId,
        recipient: input.recipient,
        roleId: role.id,
        projects: JSON.stringify([...new Set(input.projects)]),
        projectRoleId,
        codeHash: sha256(code),
        sent: JSON.stringify([new Date().toISOString()]),
        senderId: actor.userId,
      },
    })
    await audit(tx, actor, { organizationId: input.organizationId, action: 'invite.create', message: `Invited ${input.recipient} as ${role.name}` })
    return { ...created, organizationName: ctx.access.organization.name }
  })
  await sendInviteMail(invite, code, invite.organizationName, actor.name || actor.email)
  emitChange({ organizationId: invite.organizationId, kind: 'invite', ids: [invite.id] })
  return { inviteId: invite.id }
}

/** Loads an active invite and checks the actor may manage invites of its organization. */
async function manageableInvite(tx: Tx, actor: Actor, inviteId: string) {
  const invite = await tx.invite.findUnique({ where: { id: inviteId } })
  // Outsiders get the same 403 whether or not the invite exists.
  const access = await requireOrganizationPermission(actor, invite?.organizationId ?? '', 'org.user.invite', null, tx)
  if (!invite || invite.status !== INVITE_STATUS.active) throw notFound('Invite not found')
  return { invite, access }
}

/** Sends the invite again with a fresh link (the old code's hash is replaced) and records the send time. */
export async function resendOrganizationInvite(actor: Actor, inviteId: string) {
  if (actor.kind !== 'user') throw notLoggedIn()
  const code = randomToken()
  const { invite, organizationName } = await prisma.$transaction(async (tx) => {
    const { invite, access } = await manageableInvite(tx, actor, inviteId)
    const sent = [...parseJson<string[]>(invite.sent, []), new Date().toISOString()]
    const updated = await tx.invite.update({ where: { id: invite.id }, data: { codeHash: sha256(code), sent: JSON.stringify(sent) } })
    await audit(tx, actor, { organizationId: invite.organizationId, action: 'invite.resend', message: `Resent the invitation to ${invite.recipient}` })
    return { invite: updated, organizationName: access.organization.name }
  })
  await sendInviteMail(invite, code, organizationName, actor.name || actor.email)
  emitChange({ organizationId: invite.organizationId, kind: 'invite', ids: [invite.id] })
  return { inviteId, sent: lastSent(invite.sent) }
}

export async function revokeOrganizationInvite(actor: Actor, inviteId: string) {
  const invite = await prisma.$transaction(async (tx) => {
    const { invite } = await manageableInvite(tx, actor, inviteId)
    await tx.invite.update({ where: { id: invite.id }, data: { status: INVITE_STATUS.revoked } })
    await audit(tx, actor, { organizationId: invite.organizationId, action: 'invite.revoke', message: `Revoked the invitation to ${invite.recipient}` })
    return invite
  })
  emitChange({ organizationId: invite.organizationId, kind: 'invite', ids: [invite.id] })
  return { inviteId }
}

type InviteRow = { id: string; organizationId: string; recipient: string; roleId: string; projects: string; projectRoleId: string | null; sent: string; status: string }

/** Names the role and projects of invites for display. */
async function describeInvites(rows: InviteRow[]) {
  const roleIds = [...new Set(rows.flatMap((r) => [r.roleId, r.projectRoleId ?? '']))]
  const projectIds = [...new Set(rows.flatMap((r) => parseJson<string[]>(r.projects, [])))]
  const [roles, projects] = await Promise.all([
    prisma.role.findMany({ where: { id: { in: roleIds } }, select: { id: true, name: true } }),
    prisma.project.findMany({ where: { id: { in: projectIds } }, select: { id: true, name: true } }),
  ])
  const roleName = new Map(roles.map((r) => [r.id, r.name]))
  const projectName = new Map(projects.map((p) => [p.id, p.name]))
  return rows.map((r) => ({
    id: r.id,
    organizationId: r.organizationId,
    recipient: r.recipient,
    status: r.status,
    roleName: roleName.get(r.roleId) ?? 'Unknown Role',
    projects: parseJson<string[]>(r.projects, []).map((id) => ({ id, name: projectName.get(id) ?? 'Unknown Project' })),
    projectRoleName: r.projectRoleId ? (roleName.get(r.projectRoleId) ?? 'Unknown Role') : null,
    sent: lastSent(r.sent),
  }))
}

/** The organization's active invites (the Invites table, shown with canUserInvite). */
export async function listInvites(actor: Actor, organizationId: string) {
  await requireOrganizationPermission(actor, organizationId, 'org.user.invite')
  const rows = await prisma.invite.findMany({ where: { organizationId, status: INVITE_STATUS.active }, orderBy: { createdAt: 'desc' } })
  return { invites: await describeInvites(rows) }
}

/** The signed-in user's verified e-mail, or an error: invites belong to an address the user proved. */
async function verifiedEmail(actor: Actor): Promise<{ userId: string; email: string }> {
  if (actor.kind !== 'user') throw notLoggedIn()
  const user = await prisma.user.findUnique({ where: { id: actor.userId }, select: { email: true, emailVerified: true } })
  if (!user) throw notLoggedIn()
  if (!user.emailVerified) throw new DomainError('mvr-auth/unverified', 'Unverified email address', 403)
  return { userId: actor.userId, email: normalizeEmail(user.email) }
}

/** User settings, Invites: active invites addressed to the user's verified e-mail. */
export async function listMyInvites(actor: Actor) {
  const email = await verifiedEmail(actor)
    .then((v) => v.email)
    .catch(() => null)
  if (!email) return { invites: [] }
  const rows = await prisma.invite.findMany({
    where: { recipient: email, status: INVITE_STATUS.active },
    include: { organization: { select: { name: true } } },
    orderBy: { createdAt: 'desc' },
  })
  const described = await describeInvites(rows)
  const invites = await Promise.all(
    described.map(async (invite, i) => {
      // Resend and Revoke only where the user holds the invite right in that organization.
      const canManage = await getOrganizationAccess(actor, invite.organizationId)
        .then((a) => a.can('org.user.invite'))
        .catch(() => false)
      return { ...invite, organizationName: rows[i]!.organization.name, canManage }
    }),
  )
  return { invites }
}

/**
 * User settings, Invites: the active invites the signed-in user sent, in every organization. Each
 * says whether the user may still Resend and Revoke it (org.user.invite there, the same right
 * resendOrganizationInvite and revokeOrganizationInvite enforce).
 */
export async function listSentInvites(actor: Actor) {
  if (actor.kind !== 'user') throw notLoggedIn()
  const rows = await prisma.invite.findMany({
    where: { senderId: actor.userId, status: INVITE_STATUS.active },
    include: { organization: { select: { name: true } } },
    orderBy: { createdAt: 'desc' },
  })
  const described = await describeInvites(rows)
  const rights = new Map<string, boolean>()
  for (const organizationId of new Set(rows.map((r) => r.organizationId))) {
    rights.set(
      organizationId,
      await getOrganizationAccess(actor, organizationId)
        .then((a) => a.can('org.user.invite'))
        .catch(() => false),
    )
  }
  return { invites: described.map((invite, i) => ({ ...invite, organizationName: rows[i]!.organization.name, canManage: rights.get(invite.organizationId) ?? false })) }
}

/**
 * An invite the signed-in user may answer: addressed to their verified e-mail, still active, and
 * (when a link code is given) matching that code.
 */
async function answerableInvite(actor: Actor, inviteId: string, code: string | undefined) {
  requireAccountWrite(actor)
  const { userId, email } = await verifiedEmail(actor)
  const invite = await prisma.invite.findUnique({ where: { id: inviteId }, include: { organization: { select: { id: true, name: true } } } })
  if (!invite || (code !== undefined && invite.codeHash !== sha256(code))) throw notFound('This invitation does not exist or its link was replaced by a newer one')
  if (invite.recipient !== email) throw new DomainError('mvr-auth/mismatchemail', 'Incorrect email address', 403)
  if (invite.status !== INVITE_STATUS.active) throw new DomainError('failed-precondition', `This invitation was already ${invite.status}`, 410)
  return { invite, userId }
}

/** The invite page: what accepting would grant. */
export async function getInviteForRecipient(actor: Actor, inviteId: string, code: string) {
  const { invite } = await answerableInvite(actor, inviteId, code)
  const [described] = await describeInvites([invite])
  return { ...described!, organizationName: invite.organization.name }
}

export const answerInviteInput = z.object({ inviteId: z.string().min(1), code: z.string().min(1).optional() })

/** Accepts: the organization-level right with the invite's role, plus one project right per listed project. */
export async function acceptInvite(actor: Actor, raw: z.input<typeof answerInviteInput>) {
  const { inviteId, code } = parseInput(answerInviteInput, raw)
  const { invite, userId } = await answerableInvite(actor, inviteId, code)
  await prisma.$transaction(async (tx) => {
    const claimed = await tx.invite.updateMany({ where: { id: invite.id, status: INVITE_STATUS.active }, data: { status: INVITE_STATUS.accepted } })
    if (claimed.count === 0) throw new DomainError('failed-precondition', 'This invitation was already answered', 410)
    const hasRight = async (roleId: string, projectId: string | null) =>
      (await tx.accessRight.count({ where: { userId, organizationId: invite.organizationId, roleId, projectId } })) > 0
    if (!(await hasRight(invite.roleId, null))) {
      await tx.accessRight.create({ data: { userId, organizationId: invite.organizationId, roleId: invite.roleId } })
    }
    if (invite.projectRoleId) {
      const projects = await tx.project.findMany({
        where: { organizationId: invite.organizationId, id: { in: parseJson<string[]>(invite.projects, []) } },
        select: { id: true },
      })
      for (const { id } of projects) {
        if (!(await hasRight(invite.projectRoleId, id))) {
          await tx.accessRight.create({ data: { userId, organizationId: invite.organizationId, roleId: invite.projectRoleId, projectId: id } })
        }
      }
    }
    await compileUserAcls(tx, userId, invite.organizationId)
    await audit(tx, actor, { organizationId: invite.organizationId, action: 'invite.accept', message: `${invite.recipient} accepted the invitation` })
  })
  emitChange({ organizationId: invite.organizationId, kind: 'member', ids: [userId] })
  emitChange({ organizationId: invite.organizationId, kind: 'invite', ids: [invite.id] })
  emitChange({ organizationId: null, kind: 'user', userId })
  return { organizationId: invite.organizationId }
}

export async function declineInvite(actor: Actor, raw: z.input<typeof answerInviteInput>) {
  const { inviteId, code } = parseInput(answerInviteInput, raw)
  const { invite } = await answerableInvite(actor, inviteId, code)
  await prisma.$transaction(async (tx) => {
    await tx.invite.update({ where: { id: invite.id }, data: { status: INVITE_STATUS.declined } })
    await audit(tx, actor, { organizationId: invite.organizationId, action: 'invite.decline', message: `${invite.recipient} declined the invitation` })
  })
  emitChange({ organizationId: invite.organizationId, kind: 'invite', ids: [invite.id] })
  return { inviteId }
}
