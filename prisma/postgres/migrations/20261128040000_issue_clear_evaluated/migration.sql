-- AlterTable
ALTER TABLE "Issue" ADD COLUMN     "clearEvaluated" INTEGER NOT NULL DEFAULT 0;

-- Before this migration a clear counted as evaluated once recorded; an active issue's next clear is still to come.
UPDATE "Issue" SET "clearEvaluated" = CASE WHEN "isActive" THEN "activation" - 1 ELSE "clearRecorded" END;

-- The minute's check for clears whose change event was lost (app/domain/notifications/clear-evaluation.server.ts
-- repeats this condition).
CREATE INDEX "Issue_clear_unevaluated_idx" ON "Issue"("id") WHERE NOT "isActive" AND "clearEvaluated" < "activation";
