-- CreateTable
CREATE TABLE "RelayNode" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "internalUrl" TEXT NOT NULL,
    "heartbeatAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

