/**
 * The permission catalogue (spec 01 section 6) and the scope ordering (spec 02 section 3).
 * Shared by the server and the UI; it holds no secrets and touches no database.
 */

/** Scope of a role or a permission: smaller is wider. Organization sits below Project. */
export const Scope = { Global: 0, Organization: 1, Project: 2, Agent: 3, System: 4 } as const
export type ScopeValue = (typeof Scope)[keyof typeof Scope]
export const scopeName = (value: number): string =>
  (Object.entries(Scope).find(([, v]) => v === value)?.[0] as string | undefined) ?? 'Unknown'
/** Scopes a role may have. */
export const ROLE_SCOPES = [Scope.Global, Scope.Organization, Scope.Project] as const

export const PERMISSION_GROUPS = {
  Global: { scope: Scope.Global, permissions: ['cloud.admin'] },
  Organization: {
    scope: Scope.Organization,
    permissions: [
      'org.create', 'org.view', 'org.update', 'org.delete', 'org.transfer', 'org.user.invite', 'org.user.add',
      'org.user.remove', 'org.user.editRoles', 'org.user.assignRole', 'org.agents.connect', 'org.agents.connect.admin',
      'org.audit.view', 'org.events.view', 'org.metrics.view', 'org.invoices.view', 'org.billing.view', 'org.billing.update',
    ],
  },
  Project: {
    scope: Scope.Project,
    permissions: [
      'project.create', 'project.view', 'project.update', 'project.delete', 'project.user.assignRole',
      'project.agents.connect', 'project.agents.connect.admin', 'project.metrics.view',
    ],
  },
  // Notes belong to the organization (they are attached to page paths, not to projects).
  Note: {
    scope: Scope.Organization,
    permissions: ['note.list', 'note.create', 'note.view', 'note.update', 'note.delete', 'note.archive', 'note.unarchive'],
  },
  Agent: {
    scope: Scope.Agent,
    permissions: ['agent.list', 'agent.enroll', 'agent.assignToProject', 'agent.delete', 'agent.connect', 'agent.connect.admin'],
  },
} as const

export type PermissionGroup = keyof typeof PERMISSION_GROUPS
export type Permission = (typeof PERMISSION_GROUPS)[PermissionGroup]['permissions'][number]

export const ALL_PERMISSIONS: Permission[] = Object.values(PERMISSION_GROUPS).flatMap((g) => [...g.permissions])

const permissionScope = new Map<string, number>(
  Object.values(PERMISSION_GROUPS).flatMap((g) => g.permissions.map((p) => [p, g.scope] as const)),
)
export const isPermission = (name: string): name is Permission => permissionScope.has(name)
export const scopeOfPermission = (name: Permission): number => permissionScope.get(name)!

/** A permission may be put in a role when its scope is at or below (narrower than) the role's scope. */
export const permissionsForScope = (roleScope: number): Permission[] =>
  ALL_PERMISSIONS.filter((p) => scopeOfPermission(p) >= roleScope)

/** Default roles, seeded by the first migration so production has them (docs/roles.md). */
export const DEFAULT_ROLE_IDS = {
  orgAdmin: 'role-org-admin-00000',
  orgMember: 'role-org-member-0000',
  orgViewer: 'role-org-viewer-0000',
  projectManager: 'role-prj-manager-000',
  projectViewer: 'role-prj-viewer-0000',
  cloudAdmin: 'role-cloud-admin-000',
} as const

/** The owner's organization-level role must keep these (spec 02 section 5, owner rule). */
export const OWNER_REQUIRED_PERMISSIONS: Permission[] = ['org.update', 'org.transfer', 'org.user.assignRole']

/** Capability flags sent to the UI; computed on the server from the check function. */
export type OrganizationCapabilities = {
  canUpdate: boolean
  canDelete: boolean
  canTransfer: boolean
  canProjectCreate: boolean
  canProjectUpdate: boolean
  canProjectDelete: boolean
  canBillingView: boolean
  canUserEditRoles: boolean
  canUserAssignRole: boolean
  canUserAdd: boolean
  canUserInvite: boolean
  canUserRemove: boolean
  canAgentEnroll: boolean
  canAgentDelete: boolean
  canAssignToProject: boolean
  canListAgents: boolean
  /** org.view, or project.view on at least one project (project-scoped members). */
  canListProjects: boolean
  /** The Members page (org.view). */
  canListMembers: boolean
  canListNotes: boolean
  canMetricsView: boolean
  canAuditView: boolean
  isCurrentUserOwner: boolean
}

export type ProjectCapabilities = {
  canView: boolean
  canUpdate: boolean
  canDelete: boolean
  canUserAssignRole: boolean
  canMetricsView: boolean
}

type DefaultRole = {
  id: string
  name: string
  description: string
  resourceType: number
  permissions: Permission[]
  assignableBy: string[]
}

const R = DEFAULT_ROLE_IDS
/** Sensible default permission sets; documented in docs/roles.md and seeded by migration. */
export const DEFAULT_ROLES: DefaultRole[] = [
  {
    id: R.orgAdmin,
    name: 'Organization Admin',
    description: 'Full control of the organization: members, roles, projects, agents, billing and notes.',
    resourceType: Scope.Organization,
    permissions: ALL_PERMISSIONS.filter((p) => p !== 'cloud.admin' && p !== 'org.create'),
    assignableBy: [R.orgAdmin],
  },
  {
    id: R.orgMember,
    name: 'Organization Member',
    description: 'Works with projects, agents and notes; cannot manage members, roles or billing.',
    resourceType: Scope.Organization,
    permissions: [
      'org.view', 'org.audit.view', 'org.events.view', 'org.metrics.view', 'org.agents.connect',
      'project.create', 'project.view', 'project.update', 'project.metrics.view', 'project.agents.connect',
      'note.list', 'note.create', 'note.view', 'note.update', 'note.archive', 'note.unarchive',
      'agent.list', 'agent.enroll', 'agent.assignToProject',
    ],
    assignableBy: [R.orgAdmin],
  },
  {
    id: R.orgViewer,
    name: 'Organization Viewer',
    description: 'Read-only access to the organization, its projects, agents and notes.',
    resourceType: Scope.Organization,
    permissions: ['org.view', 'org.metrics.view', 'project.view', 'project.metrics.view', 'note.list', 'note.view', 'agent.list'],
    assignableBy: [R.orgAdmin],
  },
  {
    id: R.projectManager,
    name: 'Project Manager',
    description: 'Manages one project and its sub-projects: settings, members, systems and remote connections.',
    resourceType: Scope.Project,
    permissions: [
      'project.create', 'project.view', 'project.update', 'project.delete', 'project.user.assignRole',
      'project.agents.connect', 'project.agents.connect.admin', 'project.metrics.view', 'agent.list', 'agent.assignToProject',
    ],
    assignableBy: [R.orgAdmin, R.projectManager],
  },
  {
    id: R.projectViewer,
    name: 'Project Viewer',
    description: 'Read-only access to one project and its sub-projects.',
    resourceType: Scope.Project,
    permissions: ['project.view', 'project.metrics.view', 'agent.list'],
    assignableBy: [R.orgAdmin, R.projectManager],
  },
  {
    id: R.cloudAdmin,
    name: 'Cloud Admin',
    description: 'Staff: manages global roles and ACLs.',
    resourceType: Scope.Global,
    permissions: ['cloud.admin'],
    assignableBy: [],
  },
]
