-- AlterTable
ALTER TABLE "Issue" ADD COLUMN     "notifyEvaluated" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "notifyEvaluatedSeverity" INTEGER NOT NULL DEFAULT 0;

-- issues from before this migration count as evaluated (their change events were handled by the running server)
UPDATE "Issue" SET "notifyEvaluated" = "activation", "notifyEvaluatedSeverity" = "severity";
