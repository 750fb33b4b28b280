#!/usr/bin/env node
// Builds the relay's native byte pump (native/relay-pump.c -> native/build/relay-pump.node) with the
// machine's C compiler against Node-API's headers; run by `npm install` (postinstall) and by
// `npm test` before the suites. One C file with no dependencies: `cc` takes ~1 s where node-gyp
// would add a Python toolchain and a generated build tree (docs/decisions/109-relay-bodies-pumped-off-the-event-loop.md).
// Up to date: nothing to do. No compiler or headers: one line, exit 0, and the relay moves raw
// bodies in JavaScript (relay/native-pump.ts); `--require` makes that a failure (npm test).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const source = path.join(root, 'native', 'relay-pump.c')
const target = path.join(root, 'native', 'build', 'relay-pump.node')
const required = process.argv.includes('--require')

function give(why) {
  const text = `native pump not built: ${why}; the relay moves raw bodies in JavaScript (slower downloads)`
  if (required) {
    console.error(`${text}. npm test needs it: install a C compiler (Debian: build-essential) and run npm install.`)
    process.exit(1)
  }
  console.log(text)
  process.exit(0)
}

if (process.platform !== 'linux') give(`it uses Linux's poll and eventfd (this is ${process.platform})`)
if (fs.existsSync(target) && fs.statSync(target).mtimeMs >= fs.statSync(source).mtimeMs) process.exit(0)

// Node-API's headers: where npm's nodedir points (Debian: /usr), else beside this node binary.
const includes = [process.env.npm_config_nodedir, path.resolve(path.dirname(process.execPath), '..')]
  .filter(Boolean)
  .map((dir) => path.join(dir, 'include', 'node'))
const include = includes.find((dir) => fs.existsSync(path.join(dir, 'node_api.h')))
if (!include) give(`no node_api.h in ${includes.join(' or ')} (Debian: apt-get install libnode-dev)`)

fs.mkdirSync(path.dirname(target), { recursive: true })
const partial = `${target}.${process.pid}`
const cc = process.env.CC || 'cc'
const built = spawnSync(cc, ['-O2', '-Wall', '-shared', '-fPIC', '-pthread', `-I${include}`, '-o', partial, source], { encoding: 'utf8' })
if (built.error || built.status !== 0) {
  fs.rmSync(partial, { force: true })
  give(built.error ? `${cc} did not run (${built.error.message})` : `${cc} failed:\n${built.stderr.trim()}`)
}
// Renamed into place whole: a relay starting meanwhile loads the old file or the new one, never half of one.
fs.renameSync(partial, target)
console.log(`native pump built: ${path.relative(root, target)}`)
