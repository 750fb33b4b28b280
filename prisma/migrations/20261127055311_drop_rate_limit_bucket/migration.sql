-- DropTable
PRAGMA foreign_keys=off;
DROP TABLE "RateLimitBucket";
PRAGMA foreign_keys=on;

