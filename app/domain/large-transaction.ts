/**
 * The transaction budget of operations whose size grows with the data (a subtree of 1,050
 * projects, every user's ACLs, a thousand notifications): Prisma's default (2 s to start, 5 s to
 * finish) is exceeded on PostgreSQL on a loaded server, where each statement is a round trip.
 * All-or-nothing is still right for them, so they get more time rather than being split.
 */
export const LARGE_TRANSACTION = { maxWait: 15_000, timeout: 300_000 }
