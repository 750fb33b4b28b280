-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_UsageCounter" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "agentId" TEXT NOT NULL,
    "organizationId" TEXT,
    "organizationKey" TEXT NOT NULL DEFAULT '',
    "hour" DATETIME NOT NULL,
    "call" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "UsageCounter_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "UsageCounter_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- Hand-written data fill: organizationKey of the rows already counted is their organizationId, or ''
-- for none (docs/decisions/018-usage-counted-per-organization.md). Unique as before: one row per
-- agent, hour and call so far.
INSERT INTO "new_UsageCounter" ("agentId", "call", "count", "hour", "id", "organizationId", "organizationKey") SELECT "agentId", "call", "count", "hour", "id", "organizationId", COALESCE("organizationId", '') FROM "UsageCounter";
DROP TABLE "UsageCounter";
ALTER TABLE "new_UsageCounter" RENAME TO "UsageCounter";
CREATE INDEX "UsageCounter_organizationId_hour_idx" ON "UsageCounter"("organizationId", "hour");
CREATE UNIQUE INDEX "UsageCounter_agentId_hour_call_organizationKey_key" ON "UsageCounter"("agentId", "hour", "call", "organizationKey");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

