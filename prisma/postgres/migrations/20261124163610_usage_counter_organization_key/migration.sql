-- DropIndex
DROP INDEX "UsageCounter_agentId_hour_call_key";

-- AlterTable
ALTER TABLE "UsageCounter" ADD COLUMN     "organizationKey" TEXT NOT NULL DEFAULT '';

-- Hand-written data fill: organizationKey of the rows already counted is their organizationId, or ''
-- for none (docs/decisions/018-usage-counted-per-organization.md). Unique as before: one row per
-- agent, hour and call so far.
UPDATE "UsageCounter" SET "organizationKey" = "organizationId" WHERE "organizationId" IS NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "UsageCounter_agentId_hour_call_organizationKey_key" ON "UsageCounter"("agentId", "hour", "call", "organizationKey");

