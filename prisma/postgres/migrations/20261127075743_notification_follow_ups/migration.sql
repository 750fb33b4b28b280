-- Resolved and repeat notifications (docs/decisions/048-resolved-and-repeat-notifications.md), and
-- the claim time of notification deliveries (a dead flusher's claim runs out, decision 047).
-- DropIndex
DROP INDEX "NotificationDelivery_userId_issueId_activation_severity_key";

-- AlterTable
ALTER TABLE "Subscription" ADD COLUMN     "notifyResolved" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "repeatMinutes" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "NotificationDelivery" ADD COLUMN     "claimedAt" TIMESTAMP(3),
ADD COLUMN     "event" TEXT NOT NULL DEFAULT 'active',
ADD COLUMN     "round" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE UNIQUE INDEX "NotificationDelivery_userId_issueId_activation_severity_eve_key" ON "NotificationDelivery"("userId", "issueId", "activation", "severity", "event", "round");
