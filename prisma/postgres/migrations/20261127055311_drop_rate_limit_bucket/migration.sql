-- DropTable
DROP TABLE "RateLimitBucket";

