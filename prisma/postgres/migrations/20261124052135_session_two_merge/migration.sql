-- AlterTable
ALTER TABLE "ApiToken" ADD COLUMN     "createdByName" TEXT,
ADD COLUMN     "organizationId" TEXT,
ADD COLUMN     "permissions" TEXT NOT NULL DEFAULT '[]',
ADD COLUMN     "scope" TEXT NOT NULL DEFAULT 'full';

-- CreateTable
CREATE TABLE "RelayNode" (
    "id" TEXT NOT NULL,
    "internalUrl" TEXT NOT NULL,
    "heartbeatAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RelayNode_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ApiToken_organizationId_idx" ON "ApiToken"("organizationId");

-- CreateIndex
CREATE INDEX "System_projectId_name_key_id_idx" ON "System"("projectId", "name", "key", "id");

-- AddForeignKey
ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

