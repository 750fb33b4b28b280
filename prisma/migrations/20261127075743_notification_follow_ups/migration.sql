-- Resolved and repeat notifications (docs/decisions/048-resolved-and-repeat-notifications.md), and
-- the claim time of notification deliveries (a dead flusher's claim runs out, decision 047).
-- Plain ADD COLUMNs with constant defaults: SQLite takes them without copying the tables.
ALTER TABLE "Subscription" ADD COLUMN "notifyResolved" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "Subscription" ADD COLUMN "repeatMinutes" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "NotificationDelivery" ADD COLUMN "event" TEXT NOT NULL DEFAULT 'active';
ALTER TABLE "NotificationDelivery" ADD COLUMN "round" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "NotificationDelivery" ADD COLUMN "claimedAt" DATETIME;

-- A repeat and a resolved message are deliveries of their own beside the one that told of the activation.
DROP INDEX "NotificationDelivery_userId_issueId_activation_severity_key";
CREATE UNIQUE INDEX "NotificationDelivery_userId_issueId_activation_severity_event_round_key" ON "NotificationDelivery"("userId", "issueId", "activation", "severity", "event", "round");
