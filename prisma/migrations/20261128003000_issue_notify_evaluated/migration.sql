-- AlterTable (plain ADD COLUMNs with constant defaults: no table copy)
ALTER TABLE "Issue" ADD COLUMN "notifyEvaluated" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Issue" ADD COLUMN "notifyEvaluatedSeverity" INTEGER NOT NULL DEFAULT 0;
-- issues from before this migration count as evaluated (their change events were handled by the running server)
UPDATE "Issue" SET "notifyEvaluated" = "activation", "notifyEvaluatedSeverity" = "severity";
