-- CreateTable
CREATE TABLE "DeviceVersionCount" (
    "systemId" TEXT NOT NULL,
    "component" TEXT NOT NULL,
    "product" TEXT NOT NULL,
    "versionSoftware" TEXT NOT NULL,
    "versionFirmware" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    PRIMARY KEY ("systemId", "component", "product", "versionSoftware", "versionFirmware"),
    CONSTRAINT "DeviceVersionCount_systemId_fkey" FOREIGN KEY ("systemId") REFERENCES "System" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "DeviceVersionCount_systemId_component_product_versionSoftware_versionFirmware_count_idx" ON "DeviceVersionCount"("systemId", "component", "product", "versionSoftware", "versionFirmware", "count");


-- Kept by triggers so every writer of Device maintains it (ingest's prepared statements, Prisma,
-- seeds). A later migration that rebuilds "Device" (drop and rename) drops these triggers and must
-- create them again; tests/integration/device-version-counts.test.ts fails if they are missing.
CREATE TRIGGER "Device_versionCount_insert" AFTER INSERT ON "Device" BEGIN
    INSERT INTO "DeviceVersionCount" ("systemId", "component", "product", "versionSoftware", "versionFirmware", "count")
    VALUES (NEW."systemId", NEW."component", NEW."product", COALESCE(NEW."versionSoftware", ''), COALESCE(NEW."versionFirmware", ''), NEW."count")
    ON CONFLICT ("systemId", "component", "product", "versionSoftware", "versionFirmware") DO UPDATE SET "count" = "count" + excluded."count";
END;

CREATE TRIGGER "Device_versionCount_delete" AFTER DELETE ON "Device" BEGIN
    UPDATE "DeviceVersionCount" SET "count" = "count" - OLD."count"
    WHERE "systemId" = OLD."systemId" AND "component" = OLD."component" AND "product" = OLD."product"
      AND "versionSoftware" = COALESCE(OLD."versionSoftware", '') AND "versionFirmware" = COALESCE(OLD."versionFirmware", '');
    DELETE FROM "DeviceVersionCount"
    WHERE "systemId" = OLD."systemId" AND "component" = OLD."component" AND "product" = OLD."product"
      AND "versionSoftware" = COALESCE(OLD."versionSoftware", '') AND "versionFirmware" = COALESCE(OLD."versionFirmware", '') AND "count" <= 0;
END;

-- only when a counted column really changes (ingest's update writes every column; properties change most)
CREATE TRIGGER "Device_versionCount_update" AFTER UPDATE OF "systemId", "component", "product", "versionSoftware", "versionFirmware", "count" ON "Device"
WHEN OLD."systemId" IS NOT NEW."systemId" OR OLD."component" IS NOT NEW."component" OR OLD."product" IS NOT NEW."product"
  OR OLD."versionSoftware" IS NOT NEW."versionSoftware" OR OLD."versionFirmware" IS NOT NEW."versionFirmware" OR OLD."count" IS NOT NEW."count"
BEGIN
    UPDATE "DeviceVersionCount" SET "count" = "count" - OLD."count"
    WHERE "systemId" = OLD."systemId" AND "component" = OLD."component" AND "product" = OLD."product"
      AND "versionSoftware" = COALESCE(OLD."versionSoftware", '') AND "versionFirmware" = COALESCE(OLD."versionFirmware", '');
    DELETE FROM "DeviceVersionCount"
    WHERE "systemId" = OLD."systemId" AND "component" = OLD."component" AND "product" = OLD."product"
      AND "versionSoftware" = COALESCE(OLD."versionSoftware", '') AND "versionFirmware" = COALESCE(OLD."versionFirmware", '') AND "count" <= 0;
    INSERT INTO "DeviceVersionCount" ("systemId", "component", "product", "versionSoftware", "versionFirmware", "count")
    VALUES (NEW."systemId", NEW."component", NEW."product", COALESCE(NEW."versionSoftware", ''), COALESCE(NEW."versionFirmware", ''), NEW."count")
    ON CONFLICT ("systemId", "component", "product", "versionSoftware", "versionFirmware") DO UPDATE SET "count" = "count" + excluded."count";
END;

-- the devices already stored
INSERT INTO "DeviceVersionCount" ("systemId", "component", "product", "versionSoftware", "versionFirmware", "count")
SELECT "systemId", "component", "product", COALESCE("versionSoftware", ''), COALESCE("versionFirmware", ''), SUM("count") FROM "Device" GROUP BY 1, 2, 3, 4, 5;
