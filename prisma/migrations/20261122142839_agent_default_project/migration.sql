-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Agent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "clientName" TEXT NOT NULL DEFAULT '',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "secretHash" TEXT NOT NULL,
    "product" TEXT NOT NULL DEFAULT '',
    "serial" TEXT NOT NULL DEFAULT '',
    "version" TEXT NOT NULL DEFAULT '',
    "organizationId" TEXT,
    "enrolledAt" DATETIME,
    "defaultProjectId" TEXT,
    "lastSeen" DATETIME,
    "lastIp" TEXT,
    "locationLat" REAL,
    "locationLong" REAL,
    "locationLookupIp" TEXT,
    "locationManualLat" REAL,
    "locationManualLong" REAL,
    "useLocationMode" TEXT NOT NULL DEFAULT 'geoip',
    "nextNotice" DATETIME,
    "tunnelStatus" TEXT,
    "tunnelPublicKey" TEXT,
    "dataSegsOut" INTEGER NOT NULL DEFAULT 0,
    "dsackDups" INTEGER NOT NULL DEFAULT 0,
    "totalRetrans" INTEGER NOT NULL DEFAULT 0,
    "config" TEXT NOT NULL DEFAULT '{}',
    "stateUpdatedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Agent_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Agent_defaultProjectId_fkey" FOREIGN KEY ("defaultProjectId") REFERENCES "Project" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Agent" ("clientName", "config", "createdAt", "dataSegsOut", "dsackDups", "enabled", "enrolledAt", "id", "lastIp", "lastSeen", "locationLat", "locationLong", "locationLookupIp", "locationManualLat", "locationManualLong", "nextNotice", "organizationId", "product", "secretHash", "serial", "stateUpdatedAt", "totalRetrans", "tunnelPublicKey", "tunnelStatus", "updatedAt", "useLocationMode", "version") SELECT "clientName", "config", "createdAt", "dataSegsOut", "dsackDups", "enabled", "enrolledAt", "id", "lastIp", "lastSeen", "locationLat", "locationLong", "locationLookupIp", "locationManualLat", "locationManualLong", "nextNotice", "organizationId", "product", "secretHash", "serial", "stateUpdatedAt", "totalRetrans", "tunnelPublicKey", "tunnelStatus", "updatedAt", "useLocationMode", "version" FROM "Agent";
DROP TABLE "Agent";
ALTER TABLE "new_Agent" RENAME TO "Agent";
CREATE INDEX "Agent_organizationId_idx" ON "Agent"("organizationId");
CREATE INDEX "Agent_organizationId_clientName_idx" ON "Agent"("organizationId", "clientName");
CREATE INDEX "Agent_product_serial_idx" ON "Agent"("product", "serial");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

