-- Hand-written (Prisma's schema cannot express it): the Agents list's default order, name
-- ignoring case then id, read from an index instead of sorting the whole organization per page.
CREATE INDEX "Agent_organizationId_clientName_nocase_idx" ON "Agent"("organizationId", "clientName" COLLATE NOCASE, "id");
