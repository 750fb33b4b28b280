-- CreateTable
CREATE TABLE "UsageAggregate" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL DEFAULT '',
    "period" TEXT NOT NULL,
    "periodStart" DATETIME NOT NULL,
    "activeClients" INTEGER NOT NULL DEFAULT 0,
    "apiCalls" INTEGER NOT NULL DEFAULT 0,
    "calls" TEXT NOT NULL DEFAULT '{}',
    "computedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "UsageAggregate_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "UsageAggregate_organizationId_projectId_period_periodStart_key" ON "UsageAggregate"("organizationId", "projectId", "period", "periodStart");

