-- CreateIndex
CREATE INDEX "Device_systemId_component_product_versionSoftware_versionFirmware_count_idx" ON "Device"("systemId", "component", "product", "versionSoftware", "versionFirmware", "count");

-- CreateIndex
CREATE INDEX "Device_component_systemId_properties_idx" ON "Device"("component", "systemId", "properties");

