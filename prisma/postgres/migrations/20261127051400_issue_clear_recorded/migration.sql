-- AlterTable
ALTER TABLE "Issue" ADD COLUMN     "clearRecorded" INTEGER NOT NULL DEFAULT 0;


-- issues cleared before this migration count as recorded (no 'cleared' entries written for old clears)
UPDATE "Issue" SET "clearRecorded" = "activation" WHERE NOT "isActive";
