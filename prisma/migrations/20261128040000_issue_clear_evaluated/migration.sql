-- AlterTable (a plain ADD COLUMN with a constant default: no table copy)
ALTER TABLE "Issue" ADD COLUMN "clearEvaluated" INTEGER NOT NULL DEFAULT 0;
-- Before this migration a clear counted as evaluated once recorded; an active issue's next clear is still to come.
UPDATE "Issue" SET "clearEvaluated" = CASE WHEN "isActive" = 1 THEN "activation" - 1 ELSE "clearRecorded" END;
-- The minute's check for clears whose change event was lost (app/domain/notifications/clear-evaluation.server.ts
-- repeats this condition word for word: SQLite uses a partial index only for the same terms).
CREATE INDEX "Issue_clear_unevaluated_idx" ON "Issue"("id") WHERE "isActive" = 0 AND "clearEvaluated" < "activation";
