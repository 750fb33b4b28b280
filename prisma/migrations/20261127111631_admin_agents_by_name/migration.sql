-- CreateIndex
CREATE INDEX "Agent_clientName_id_idx" ON "Agent"("clientName", "id");

