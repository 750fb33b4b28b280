// Entry of the ingest worker thread: registers the TypeScript loader in this thread (a worker
// does not take the parent's `--import tsx`), then loads the worker itself.
import { register } from 'tsx/esm/api'

register()
await import('./thread.server.ts')
