-- AlterTable
ALTER TABLE "Session" ADD COLUMN "endedReason" TEXT;

-- AlterTable
ALTER TABLE "ApiToken" ADD COLUMN "revokedReason" TEXT;

