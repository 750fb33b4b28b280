#!/usr/bin/env node
// The `pixelfleet` bin: registers tsx's loader and runs the TypeScript CLI in this same process.
import { register } from 'tsx/esm/api'

register()
const { main, exitQuietlyOnClosedPipe } = await import('./index.ts')
exitQuietlyOnClosedPipe()
process.exitCode = await main(process.argv.slice(2))
