-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ProxySession" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeen" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    "connectionsActive" INTEGER NOT NULL DEFAULT 0,
    "lastPath" TEXT NOT NULL DEFAULT '',
    "closedAt" DATETIME,
    "hostLabel" TEXT,
    "browserKeyHash" TEXT,
    "boundAt" DATETIME,
    "credentialHash" TEXT NOT NULL DEFAULT '',
    "organizationId" TEXT,
    "closedReason" TEXT NOT NULL DEFAULT '',
    CONSTRAINT "ProxySession_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ProxySession_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_ProxySession" ("agentId", "authCheckHash", "browserName", "browserVersion", "clientIp", "closedAt", "connectionsActive", "createdAt", "expiresAt", "id", "lastPath", "lastSeen", "osName", "projectId", "userAgent", "userEmail", "userId") SELECT "agentId", "authCheckHash", "browserName", "browserVersion", "clientIp", "closedAt", "connectionsActive", "createdAt", "expiresAt", "id", "lastPath", "lastSeen", "osName", "projectId", "userAgent", "userEmail", "userId" FROM "ProxySession";
DROP TABLE "ProxySession";
ALTER TABLE "new_ProxySession" RENAME TO "ProxySession";
CREATE UNIQUE INDEX "ProxySession_authCheckHash_key" ON "ProxySession"("authCheckHash");
CREATE UNIQUE INDEX "ProxySession_hostLabel_key" ON "ProxySession"("hostLabel");
CREATE INDEX "ProxySession_agentId_idx" ON "ProxySession"("agentId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

