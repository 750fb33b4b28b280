/**
 * The agent protocol (v1): topics, payload schemas, topic rights and error codes. Imported by the
 * broker, ingest, the web domain, the simulator, the CLI and the benchmarks; it imports none of
 * them (only zod), so any of them can depend on it.
 */
export * from './topics'
export * from './schemas'
export * from './acl'
