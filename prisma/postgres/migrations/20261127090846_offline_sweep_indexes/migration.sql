-- CreateIndex
CREATE INDEX "Agent_lastSeen_idx" ON "Agent"("lastSeen");

-- CreateIndex
CREATE INDEX "Issue_kind_key_isActive_idx" ON "Issue"("kind", "key", "isActive");

