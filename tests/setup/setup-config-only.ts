import { setTestConfig } from './test-config'

/**
 * The setup of the `pure` and `e2e` projects (vite.config.ts): their files never open the worker's
 * own database (the end-to-end files talk to portals, each on a database of its own), so they get
 * the test configuration without one (no copied template, no Prisma loaded and connected: about
 * 0.6 CPU-s a file). Run before every file, so a file that replaced the configuration cannot leave
 * it to the next file in the same worker (`pure` shares its worker: isolate off, decision 078).
 */
// a file these tests never open: one that tried would fail loudly instead of sharing a database
setTestConfig('file:/nonexistent/pure-tests-open-no-database.db')
