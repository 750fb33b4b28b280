import { type OrganizationCapabilities } from '~/domain/access/catalogue'

/**
 * The organization edit screen's tabs (spec 02 section 2 and 6), in order, each with its gate:
 * Members, Projects, Agents need canUpdate; Roles canUpdate and canUserEditRoles; Audit Log
 * canAuditView; Settings always. Shared by the tab bar and the server-side gate of each tab.
 */
export const EDIT_TABS = [
  { id: 'members', label: 'Members', allowed: (c: OrganizationCapabilities) => c.canUpdate },
  { id: 'projects', label: 'Projects', allowed: (c: OrganizationCapabilities) => c.canUpdate },
  { id: 'agents', label: 'Agents', allowed: (c: OrganizationCapabilities) => c.canUpdate },
  { id: 'roles', label: 'Roles', allowed: (c: OrganizationCapabilities) => c.canUpdate && c.canUserEditRoles },
  { id: 'audit', label: 'Audit Log', allowed: (c: OrganizationCapabilities) => c.canAuditView },
  { id: 'settings', label: 'Settings', allowed: () => true },
] as const

export type EditTabId = (typeof EDIT_TABS)[number]['id']

export const visibleEditTabs = (c: OrganizationCapabilities) => EDIT_TABS.filter((t) => t.allowed(c))
