-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "emailVerified" BOOLEAN NOT NULL DEFAULT false,
    "photoUrl" TEXT,
    "provider" TEXT NOT NULL DEFAULT 'password',
    "passwordHash" TEXT,
    "googleSubject" TEXT,
    "isAdmin" BOOLEAN NOT NULL DEFAULT false,
    "isAgent" BOOLEAN NOT NULL DEFAULT false,
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "locale" TEXT,
    "timeZone" TEXT,
    "preferenceDefaultOrg" TEXT,
    "preferenceSidebarCollapsed" BOOLEAN NOT NULL DEFAULT false,
    "preferenceOrgIndexSort" TEXT,
    "lastOrganizationId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "lastSignInAt" TIMESTAMP(3),
    "lastSeenAt" TIMESTAMP(3),

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "ip" TEXT NOT NULL DEFAULT '',
    "userAgent" TEXT NOT NULL DEFAULT '',
    "endedReason" TEXT,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiToken" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "revokedReason" TEXT,

    CONSTRAINT "ApiToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LoginEvent" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "timeStamp" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "userAgent" TEXT NOT NULL DEFAULT '',
    "ip" TEXT NOT NULL DEFAULT '',
    "method" TEXT NOT NULL DEFAULT 'password',

    CONSTRAINT "LoginEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ActionCode" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "codeHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),

    CONSTRAINT "ActionCode_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OutboxEmail" (
    "id" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "html" TEXT NOT NULL DEFAULT '',
    "kind" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sentAt" TIMESTAMP(3),
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3),

    CONSTRAINT "OutboxEmail_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RateLimitBucket" (
    "key" TEXT NOT NULL,
    "windowStart" TIMESTAMP(3) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "RateLimitBucket_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "RateLimiterFlexible" (
    "key" TEXT NOT NULL,
    "points" INTEGER NOT NULL,
    "expire" TIMESTAMP(3),

    CONSTRAINT "RateLimiterFlexible_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "Organization" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "ownerId" TEXT NOT NULL,
    "billingStatus" TEXT NOT NULL DEFAULT 'disabled',
    "billingPeriod" TEXT NOT NULL DEFAULT 'monthly',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Organization_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Project" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "parentId" TEXT,
    "location" TEXT,
    "logoUrl" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Project_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Role" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "organizationId" TEXT NOT NULL DEFAULT '',
    "orgRef" TEXT,
    "resourceType" INTEGER NOT NULL,
    "permissions" TEXT NOT NULL DEFAULT '[]',
    "assignableBy" TEXT NOT NULL DEFAULT '[]',
    "isDefault" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Role_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AccessRight" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "roleId" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "projectId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AccessRight_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CompiledAcl" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "permissions" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CompiledAcl_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Invite" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "roleId" TEXT NOT NULL,
    "projects" TEXT NOT NULL DEFAULT '[]',
    "projectRoleId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'active',
    "codeHash" TEXT NOT NULL,
    "sent" TEXT NOT NULL DEFAULT '[]',
    "senderId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Invite_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Note" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "content" TEXT NOT NULL DEFAULT '',
    "color" TEXT NOT NULL DEFAULT 'blue',
    "resourcePath" TEXT NOT NULL,
    "resourceDisplayName" TEXT NOT NULL DEFAULT '',
    "authorId" TEXT NOT NULL,
    "archived" BOOLEAN NOT NULL DEFAULT false,
    "archivedOn" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Note_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditRecord" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT,
    "projectId" TEXT,
    "userId" TEXT,
    "userName" TEXT NOT NULL DEFAULT '',
    "ip" TEXT NOT NULL DEFAULT '',
    "action" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditRecord_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Agent" (
    "id" TEXT NOT NULL,
    "clientName" TEXT NOT NULL DEFAULT '',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "secretHash" TEXT NOT NULL,
    "product" TEXT NOT NULL DEFAULT '',
    "serial" TEXT NOT NULL DEFAULT '',
    "version" TEXT NOT NULL DEFAULT '',
    "organizationId" TEXT,
    "enrolledAt" TIMESTAMP(3),
    "defaultProjectId" TEXT,
    "lastSeen" TIMESTAMP(3),
    "lastIp" TEXT,
    "locationLat" DOUBLE PRECISION,
    "locationLong" DOUBLE PRECISION,
    "locationLookupIp" TEXT,
    "locationManualLat" DOUBLE PRECISION,
    "locationManualLong" DOUBLE PRECISION,
    "useLocationMode" TEXT NOT NULL DEFAULT 'geoip',
    "nextNotice" TIMESTAMP(3),
    "tunnelStatus" TEXT,
    "tunnelPublicKey" TEXT,
    "dataSegsOut" INTEGER NOT NULL DEFAULT 0,
    "dsackDups" INTEGER NOT NULL DEFAULT 0,
    "totalRetrans" INTEGER NOT NULL DEFAULT 0,
    "config" TEXT NOT NULL DEFAULT '{}',
    "stateUpdatedAt" TIMESTAMP(3),
    "online" BOOLEAN NOT NULL DEFAULT false,
    "alertsCount" INTEGER NOT NULL DEFAULT 0,
    "alertsSeverity" INTEGER NOT NULL DEFAULT -1,
    "deviationsCount" INTEGER NOT NULL DEFAULT 0,
    "deviationsSeverity" INTEGER NOT NULL DEFAULT -1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Agent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EnrollmentCode" (
    "id" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "usedAt" TIMESTAMP(3),

    CONSTRAINT "EnrollmentCode_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "System" (
    "id" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "projectId" TEXT,
    "alertsCount" INTEGER NOT NULL DEFAULT 0,
    "alertsSeverity" INTEGER NOT NULL DEFAULT -1,
    "deviationsCount" INTEGER NOT NULL DEFAULT 0,
    "deviationsSeverity" INTEGER NOT NULL DEFAULT -1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "System_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Device" (
    "id" TEXT NOT NULL,
    "systemId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "component" TEXT NOT NULL,
    "product" TEXT NOT NULL DEFAULT '',
    "serial" TEXT NOT NULL DEFAULT '',
    "name" TEXT NOT NULL DEFAULT '',
    "parentKey" TEXT,
    "versionSoftware" TEXT,
    "versionFirmware" TEXT,
    "properties" TEXT NOT NULL DEFAULT '{}',
    "count" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "Device_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DeviceVersionCount" (
    "systemId" TEXT NOT NULL,
    "component" TEXT NOT NULL,
    "product" TEXT NOT NULL,
    "versionSoftware" TEXT NOT NULL,
    "versionFirmware" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "DeviceVersionCount_pkey" PRIMARY KEY ("systemId","component","product","versionSoftware","versionFirmware")
);

-- CreateTable
CREATE TABLE "Issue" (
    "id" TEXT NOT NULL,
    "systemId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "component" TEXT NOT NULL,
    "deviceKey" TEXT,
    "message" TEXT NOT NULL DEFAULT '',
    "severity" INTEGER NOT NULL,
    "latestCount" INTEGER NOT NULL DEFAULT 0,
    "latestAt" TIMESTAMP(3) NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT false,
    "activation" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Issue_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IssueHistory" (
    "id" TEXT NOT NULL,
    "issueId" TEXT NOT NULL,
    "timestamp" TIMESTAMP(3) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "IssueHistory_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AgentEvent" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT,
    "agentId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "systemId" TEXT,
    "projectIds" TEXT NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AgentEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UsageCounter" (
    "id" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "organizationId" TEXT,
    "hour" TIMESTAMP(3) NOT NULL,
    "call" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "UsageCounter_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UsageAggregate" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL DEFAULT '',
    "period" TEXT NOT NULL,
    "periodStart" TIMESTAMP(3) NOT NULL,
    "activeClients" INTEGER NOT NULL DEFAULT 0,
    "apiCalls" INTEGER NOT NULL DEFAULT 0,
    "calls" TEXT NOT NULL DEFAULT '{}',
    "computedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UsageAggregate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Invoice" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "reference" TEXT NOT NULL,
    "total" TEXT NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "status" TEXT NOT NULL DEFAULT 'open',
    "dueOn" TIMESTAMP(3),
    "sentOn" TIMESTAMP(3),
    "settledOn" TIMESTAMP(3),
    "authorId" TEXT NOT NULL,
    "authorName" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Invoice_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SiteMessage" (
    "id" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'info',
    "starts" TIMESTAMP(3) NOT NULL,
    "ends" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SiteMessage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CloudState" (
    "id" TEXT NOT NULL DEFAULT 'cloud',
    "instanceName" TEXT NOT NULL DEFAULT '',
    "revision" TEXT NOT NULL DEFAULT '',
    "deployedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CloudState_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PlatformSettings" (
    "id" TEXT NOT NULL DEFAULT 'platform',
    "selfEnrollTargets" TEXT NOT NULL DEFAULT '[]',
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PlatformSettings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Subscription" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "level" TEXT NOT NULL,
    "target" TEXT NOT NULL DEFAULT '',
    "organizationId" TEXT,
    "alerts" INTEGER NOT NULL DEFAULT 0,
    "deviations" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Subscription_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NotificationDelivery" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "issueId" TEXT NOT NULL,
    "activation" INTEGER NOT NULL,
    "severity" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "emailId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "NotificationDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProxySession" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "userEmail" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "projectId" TEXT,
    "authCheckHash" TEXT NOT NULL,
    "clientIp" TEXT NOT NULL DEFAULT '',
    "userAgent" TEXT NOT NULL DEFAULT '',
    "browserName" TEXT NOT NULL DEFAULT '',
    "browserVersion" TEXT NOT NULL DEFAULT '',
    "osName" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeen" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "connectionsActive" INTEGER NOT NULL DEFAULT 0,
    "lastPath" TEXT NOT NULL DEFAULT '',
    "closedAt" TIMESTAMP(3),
    "hostLabel" TEXT,
    "browserKeyHash" TEXT,
    "boundAt" TIMESTAMP(3),
    "credentialHash" TEXT NOT NULL DEFAULT '',
    "organizationId" TEXT,
    "closedReason" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "ProxySession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TunnelConnection" (
    "id" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "port" INTEGER NOT NULL,
    "relayNode" TEXT NOT NULL DEFAULT '',
    "forwards" TEXT NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeen" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closedAt" TIMESTAMP(3),

    CONSTRAINT "TunnelConnection_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "User_googleSubject_key" ON "User"("googleSubject");

-- CreateIndex
CREATE UNIQUE INDEX "Session_tokenHash_key" ON "Session"("tokenHash");

-- CreateIndex
CREATE INDEX "Session_userId_idx" ON "Session"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_tokenHash_key" ON "ApiToken"("tokenHash");

-- CreateIndex
CREATE INDEX "ApiToken_userId_idx" ON "ApiToken"("userId");

-- CreateIndex
CREATE INDEX "LoginEvent_userId_timeStamp_idx" ON "LoginEvent"("userId", "timeStamp");

-- CreateIndex
CREATE UNIQUE INDEX "ActionCode_codeHash_key" ON "ActionCode"("codeHash");

-- CreateIndex
CREATE INDEX "ActionCode_userId_type_idx" ON "ActionCode"("userId", "type");

-- CreateIndex
CREATE INDEX "OutboxEmail_to_createdAt_idx" ON "OutboxEmail"("to", "createdAt");

-- CreateIndex
CREATE INDEX "OutboxEmail_nextAttemptAt_idx" ON "OutboxEmail"("nextAttemptAt");

-- CreateIndex
CREATE INDEX "Organization_ownerId_idx" ON "Organization"("ownerId");

-- CreateIndex
CREATE INDEX "Project_organizationId_idx" ON "Project"("organizationId");

-- CreateIndex
CREATE INDEX "Project_parentId_idx" ON "Project"("parentId");

-- CreateIndex
CREATE INDEX "Role_organizationId_idx" ON "Role"("organizationId");

-- CreateIndex
CREATE INDEX "AccessRight_userId_idx" ON "AccessRight"("userId");

-- CreateIndex
CREATE INDEX "AccessRight_organizationId_idx" ON "AccessRight"("organizationId");

-- CreateIndex
CREATE INDEX "CompiledAcl_organizationId_idx" ON "CompiledAcl"("organizationId");

-- CreateIndex
CREATE UNIQUE INDEX "CompiledAcl_userId_organizationId_projectId_key" ON "CompiledAcl"("userId", "organizationId", "projectId");

-- CreateIndex
CREATE UNIQUE INDEX "Invite_codeHash_key" ON "Invite"("codeHash");

-- CreateIndex
CREATE INDEX "Invite_organizationId_status_idx" ON "Invite"("organizationId", "status");

-- CreateIndex
CREATE INDEX "Invite_recipient_status_idx" ON "Invite"("recipient", "status");

-- CreateIndex
CREATE INDEX "Note_organizationId_resourcePath_idx" ON "Note"("organizationId", "resourcePath");

-- CreateIndex
CREATE INDEX "AuditRecord_organizationId_createdAt_idx" ON "AuditRecord"("organizationId", "createdAt");

-- CreateIndex
CREATE INDEX "AuditRecord_createdAt_idx" ON "AuditRecord"("createdAt");

-- CreateIndex
CREATE INDEX "Agent_organizationId_idx" ON "Agent"("organizationId");

-- CreateIndex
CREATE INDEX "Agent_organizationId_clientName_idx" ON "Agent"("organizationId", "clientName");

-- CreateIndex
CREATE INDEX "Agent_product_serial_idx" ON "Agent"("product", "serial");

-- CreateIndex
CREATE UNIQUE INDEX "EnrollmentCode_code_key" ON "EnrollmentCode"("code");

-- CreateIndex
CREATE INDEX "EnrollmentCode_agentId_createdAt_idx" ON "EnrollmentCode"("agentId", "createdAt");

-- CreateIndex
CREATE INDEX "System_projectId_idx" ON "System"("projectId");

-- CreateIndex
CREATE UNIQUE INDEX "System_agentId_key_key" ON "System"("agentId", "key");

-- CreateIndex
CREATE INDEX "Device_component_idx" ON "Device"("component");

-- CreateIndex
CREATE INDEX "Device_systemId_component_product_versionSoftware_versionFi_idx" ON "Device"("systemId", "component", "product", "versionSoftware", "versionFirmware", "count");

-- CreateIndex
CREATE INDEX "Device_component_systemId_properties_idx" ON "Device"("component", "systemId", "properties");

-- CreateIndex
CREATE UNIQUE INDEX "Device_systemId_key_key" ON "Device"("systemId", "key");

-- CreateIndex
CREATE INDEX "DeviceVersionCount_systemId_component_product_versionSoftwa_idx" ON "DeviceVersionCount"("systemId", "component", "product", "versionSoftware", "versionFirmware", "count");

-- CreateIndex
CREATE INDEX "Issue_isActive_severity_idx" ON "Issue"("isActive", "severity");

-- CreateIndex
CREATE UNIQUE INDEX "Issue_systemId_kind_key_key" ON "Issue"("systemId", "kind", "key");

-- CreateIndex
CREATE INDEX "IssueHistory_issueId_timestamp_idx" ON "IssueHistory"("issueId", "timestamp");

-- CreateIndex
CREATE INDEX "IssueHistory_timestamp_idx" ON "IssueHistory"("timestamp");

-- CreateIndex
CREATE INDEX "AgentEvent_organizationId_createdAt_idx" ON "AgentEvent"("organizationId", "createdAt");

-- CreateIndex
CREATE INDEX "AgentEvent_agentId_createdAt_idx" ON "AgentEvent"("agentId", "createdAt");

-- CreateIndex
CREATE INDEX "UsageCounter_organizationId_hour_idx" ON "UsageCounter"("organizationId", "hour");

-- CreateIndex
CREATE UNIQUE INDEX "UsageCounter_agentId_hour_call_key" ON "UsageCounter"("agentId", "hour", "call");

-- CreateIndex
CREATE UNIQUE INDEX "UsageAggregate_organizationId_projectId_period_periodStart_key" ON "UsageAggregate"("organizationId", "projectId", "period", "periodStart");

-- CreateIndex
CREATE INDEX "Invoice_organizationId_createdAt_idx" ON "Invoice"("organizationId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Subscription_userId_level_target_key" ON "Subscription"("userId", "level", "target");

-- CreateIndex
CREATE INDEX "NotificationDelivery_status_createdAt_idx" ON "NotificationDelivery"("status", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "NotificationDelivery_userId_issueId_activation_severity_key" ON "NotificationDelivery"("userId", "issueId", "activation", "severity");

-- CreateIndex
CREATE UNIQUE INDEX "ProxySession_authCheckHash_key" ON "ProxySession"("authCheckHash");

-- CreateIndex
CREATE UNIQUE INDEX "ProxySession_hostLabel_key" ON "ProxySession"("hostLabel");

-- CreateIndex
CREATE INDEX "ProxySession_agentId_idx" ON "ProxySession"("agentId");

-- CreateIndex
CREATE INDEX "TunnelConnection_agentId_idx" ON "TunnelConnection"("agentId");

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LoginEvent" ADD CONSTRAINT "LoginEvent_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ActionCode" ADD CONSTRAINT "ActionCode_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Organization" ADD CONSTRAINT "Organization_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Project" ADD CONSTRAINT "Project_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Project" ADD CONSTRAINT "Project_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Role" ADD CONSTRAINT "Role_orgRef_fkey" FOREIGN KEY ("orgRef") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AccessRight" ADD CONSTRAINT "AccessRight_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AccessRight" ADD CONSTRAINT "AccessRight_roleId_fkey" FOREIGN KEY ("roleId") REFERENCES "Role"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AccessRight" ADD CONSTRAINT "AccessRight_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AccessRight" ADD CONSTRAINT "AccessRight_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CompiledAcl" ADD CONSTRAINT "CompiledAcl_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CompiledAcl" ADD CONSTRAINT "CompiledAcl_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invite" ADD CONSTRAINT "Invite_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invite" ADD CONSTRAINT "Invite_senderId_fkey" FOREIGN KEY ("senderId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Note" ADD CONSTRAINT "Note_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Note" ADD CONSTRAINT "Note_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditRecord" ADD CONSTRAINT "AuditRecord_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Agent" ADD CONSTRAINT "Agent_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Agent" ADD CONSTRAINT "Agent_defaultProjectId_fkey" FOREIGN KEY ("defaultProjectId") REFERENCES "Project"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EnrollmentCode" ADD CONSTRAINT "EnrollmentCode_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "System" ADD CONSTRAINT "System_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "System" ADD CONSTRAINT "System_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Device" ADD CONSTRAINT "Device_systemId_fkey" FOREIGN KEY ("systemId") REFERENCES "System"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DeviceVersionCount" ADD CONSTRAINT "DeviceVersionCount_systemId_fkey" FOREIGN KEY ("systemId") REFERENCES "System"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Issue" ADD CONSTRAINT "Issue_systemId_fkey" FOREIGN KEY ("systemId") REFERENCES "System"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IssueHistory" ADD CONSTRAINT "IssueHistory_issueId_fkey" FOREIGN KEY ("issueId") REFERENCES "Issue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentEvent" ADD CONSTRAINT "AgentEvent_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentEvent" ADD CONSTRAINT "AgentEvent_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UsageCounter" ADD CONSTRAINT "UsageCounter_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UsageCounter" ADD CONSTRAINT "UsageCounter_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UsageAggregate" ADD CONSTRAINT "UsageAggregate_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invoice" ADD CONSTRAINT "Invoice_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Subscription" ADD CONSTRAINT "Subscription_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Subscription" ADD CONSTRAINT "Subscription_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NotificationDelivery" ADD CONSTRAINT "NotificationDelivery_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProxySession" ADD CONSTRAINT "ProxySession_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProxySession" ADD CONSTRAINT "ProxySession_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TunnelConnection" ADD CONSTRAINT "TunnelConnection_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Default roles (as prisma/migrations/20261122000001_default_roles).
INSERT INTO "Role" ("id","name","description","organizationId","orgRef","resourceType","permissions","assignableBy","isDefault","createdAt","updatedAt") VALUES ('role-org-admin-00000', 'Organization Admin', 'Full control of the organization: members, roles, projects, agents, billing and notes.', '', NULL, 1, '["org.view","org.update","org.delete","org.transfer","org.user.invite","org.user.add","org.user.remove","org.user.editRoles","org.user.assignRole","org.agents.connect","org.agents.connect.admin","org.audit.view","org.events.view","org.metrics.view","org.invoices.view","org.billing.view","org.billing.update","project.create","project.view","project.update","project.delete","project.user.assignRole","project.agents.connect","project.agents.connect.admin","project.metrics.view","note.list","note.create","note.view","note.update","note.delete","note.archive","note.unarchive","agent.list","agent.enroll","agent.assignToProject","agent.delete","agent.connect","agent.connect.admin"]', '["role-org-admin-00000"]', true, '2026-11-22T00:00:00.000Z', '2026-11-22T00:00:00.000Z');
INSERT INTO "Role" ("id","name","description","organizationId","orgRef","resourceType","permissions","assignableBy","isDefault","createdAt","updatedAt") VALUES ('role-org-member-0000', 'Organization Member', 'Works with projects, agents and notes; cannot manage members, roles or billing.', '', NULL, 1, '["org.view","org.audit.view","org.events.view","org.metrics.view","org.agents.connect","project.create","project.view","project.update","project.metrics.view","project.agents.connect","note.list","note.create","note.view","note.update","note.archive","note.unarchive","agent.list","agent.enroll","agent.assignToProject"]', '["role-org-admin-00000"]', true, '2026-11-22T00:00:00.000Z', '2026-11-22T00:00:00.000Z');
INSERT INTO "Role" ("id","name","description","organizationId","orgRef","resourceType","permissions","assignableBy","isDefault","createdAt","updatedAt") VALUES ('role-org-viewer-0000', 'Organization Viewer', 'Read-only access to the organization, its projects, agents and notes.', '', NULL, 1, '["org.view","org.metrics.view","project.view","project.metrics.view","note.list","note.view","agent.list"]', '["role-org-admin-00000"]', true, '2026-11-22T00:00:00.000Z', '2026-11-22T00:00:00.000Z');
INSERT INTO "Role" ("id","name","description","organizationId","orgRef","resourceType","permissions","assignableBy","isDefault","createdAt","updatedAt") VALUES ('role-prj-manager-000', 'Project Manager', 'Manages one project and its sub-projects: settings, members, systems and remote connections.', '', NULL, 2, '["project.create","project.view","project.update","project.delete","project.user.assignRole","project.agents.connect","project.agents.connect.admin","project.metrics.view","agent.list","agent.assignToProject"]', '["role-org-admin-00000","role-prj-manager-000"]', true, '2026-11-22T00:00:00.000Z', '2026-11-22T00:00:00.000Z');
INSERT INTO "Role" ("id","name","description","organizationId","orgRef","resourceType","permissions","assignableBy","isDefault","createdAt","updatedAt") VALUES ('role-prj-viewer-0000', 'Project Viewer', 'Read-only access to one project and its sub-projects.', '', NULL, 2, '["project.view","project.metrics.view","agent.list"]', '["role-org-admin-00000","role-prj-manager-000"]', true, '2026-11-22T00:00:00.000Z', '2026-11-22T00:00:00.000Z');
INSERT INTO "Role" ("id","name","description","organizationId","orgRef","resourceType","permissions","assignableBy","isDefault","createdAt","updatedAt") VALUES ('role-cloud-admin-000', 'Cloud Admin', 'Staff: manages global roles and ACLs.', '', NULL, 0, '["cloud.admin"]', '[]', true, '2026-11-22T00:00:00.000Z', '2026-11-22T00:00:00.000Z');

-- DeviceVersionCount is kept by triggers so every writer of Device maintains it (ingest's batched
-- statements, Prisma, seeds), as the SQLite triggers of 20261122155245_device_version_counts.
-- A later migration that rebuilds "Device" must create them again;
-- tests/integration/device-version-counts.test.ts fails if they are missing.
CREATE FUNCTION "Device_versionCount_add"("sys" TEXT, "comp" TEXT, "prod" TEXT, "sw" TEXT, "fw" TEXT, "n" INTEGER) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO "DeviceVersionCount" ("systemId", "component", "product", "versionSoftware", "versionFirmware", "count")
    VALUES ("sys", "comp", "prod", COALESCE("sw", ''), COALESCE("fw", ''), "n")
    ON CONFLICT ("systemId", "component", "product", "versionSoftware", "versionFirmware")
    DO UPDATE SET "count" = "DeviceVersionCount"."count" + excluded."count";
END $$;

CREATE FUNCTION "Device_versionCount_remove"("sys" TEXT, "comp" TEXT, "prod" TEXT, "sw" TEXT, "fw" TEXT, "n" INTEGER) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    UPDATE "DeviceVersionCount" SET "count" = "count" - "n"
    WHERE "systemId" = "sys" AND "component" = "comp" AND "product" = "prod"
      AND "versionSoftware" = COALESCE("sw", '') AND "versionFirmware" = COALESCE("fw", '');
    DELETE FROM "DeviceVersionCount"
    WHERE "systemId" = "sys" AND "component" = "comp" AND "product" = "prod"
      AND "versionSoftware" = COALESCE("sw", '') AND "versionFirmware" = COALESCE("fw", '') AND "count" <= 0;
END $$;

CREATE FUNCTION "Device_versionCount_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        PERFORM "Device_versionCount_remove"(OLD."systemId", OLD."component", OLD."product", OLD."versionSoftware", OLD."versionFirmware", OLD."count");
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        PERFORM "Device_versionCount_add"(NEW."systemId", NEW."component", NEW."product", NEW."versionSoftware", NEW."versionFirmware", NEW."count");
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER "Device_versionCount_insert" AFTER INSERT ON "Device"
    FOR EACH ROW EXECUTE FUNCTION "Device_versionCount_trigger"();

CREATE TRIGGER "Device_versionCount_delete" AFTER DELETE ON "Device"
    FOR EACH ROW EXECUTE FUNCTION "Device_versionCount_trigger"();

-- only when a counted column really changes (ingest's update writes every column; properties change most)
CREATE TRIGGER "Device_versionCount_update" AFTER UPDATE OF "systemId", "component", "product", "versionSoftware", "versionFirmware", "count" ON "Device"
    FOR EACH ROW
    WHEN (OLD."systemId" IS DISTINCT FROM NEW."systemId" OR OLD."component" IS DISTINCT FROM NEW."component" OR OLD."product" IS DISTINCT FROM NEW."product"
      OR OLD."versionSoftware" IS DISTINCT FROM NEW."versionSoftware" OR OLD."versionFirmware" IS DISTINCT FROM NEW."versionFirmware" OR OLD."count" IS DISTINCT FROM NEW."count")
    EXECUTE FUNCTION "Device_versionCount_trigger"();
