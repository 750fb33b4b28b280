import { type ApiCalls } from './registry.server'
import { authCalls } from './auth.server'
import { siteCalls } from './site.server'
import { userCalls } from './users.server'
import { agentCalls } from './agents.server'
import { tokenCalls } from './tokens.server'
import { organizationCalls } from './organizations.server'
import { projectCalls } from './projects.server'
import { noteCalls } from './notes.server'
import { notificationCalls } from './notifications.server'
import { notificationChannelCalls } from './notification-channels.server'
import { usageCalls } from './usage.server'
import { memberCalls } from './members.server'
import { inviteCalls } from './invites.server'
import { roleCalls } from './roles.server'
import { auditCalls } from './audit.server'
import { relayCalls } from './relay.server'
import { adminOrgCalls } from './admin-orgs.server'
import { adminUserCalls } from './admin-users.server'
import { opsCalls } from './ops.server'
import { alarmCalls } from './alarms.server'

/** Every /client/v1 call by name. Each concern keeps its calls in its own module. */
export const apiCalls: ApiCalls = {
  ...authCalls,
  ...siteCalls,
  ...userCalls,
  ...agentCalls,
  ...tokenCalls,
  ...organizationCalls,
  ...projectCalls,
  ...noteCalls,
  ...notificationCalls,
  ...notificationChannelCalls,
  ...usageCalls,
  ...memberCalls,
  ...inviteCalls,
  ...roleCalls,
  ...auditCalls,
  ...relayCalls,
  ...adminOrgCalls,
  ...adminUserCalls,
  ...opsCalls,
  ...alarmCalls,
}
