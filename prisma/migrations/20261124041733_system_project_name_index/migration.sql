-- CreateIndex
CREATE INDEX "System_projectId_name_key_id_idx" ON "System"("projectId", "name", "key", "id");

