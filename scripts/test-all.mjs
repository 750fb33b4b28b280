#!/usr/bin/env node
// `npm test`: system packages, type check, lint, the production build, the Vitest suites on SQLite,
// then the PostgreSQL run (test-scaleout.mjs) when PIXELFLEET_TEST_POSTGRES_URL is set. With that
// variable (CI, .ci/run) the chaos suite's quick profile (test-chaos.mjs --quick) also runs, in the
// background from the build on: it mostly waits (outages, RabbitMQ's boot, reconnects), so beside
// the SQLite suites it costs CI little wall time. Its output goes to a log file, printed when it
// ends; its failure fails `npm test` with one clear line. Without the variable, or without
// RabbitMQ, nginx or PostgreSQL installed, the chaos run is skipped with one line. Arguments after
// `npm test --` go to both Vitest runs (test-scaleout.mjs keeps the file filters among them to its
// suites); the chaos run ignores them.
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describeDescendants, killTree } from './process-tree.mjs'

const root = path.resolve(import.meta.dirname, '..')
// `npm test -- <vitest arguments>` (a file filter, -t, --reporter ...): passed to both Vitest runs
const vitestArgs = process.argv.slice(2)
const started = Date.now()
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(0)} s`

// A run that hangs must end with a report, not be cut off silently (CI stops after 90 minutes
// and shows only the last lines): past this limit (a normal run takes 10-25), `npm test` prints
// what is still running, ends it and fails. Vitest's slow-file reporter has already named the
// file by then (tests/setup/slow-file-reporter.ts).
const DEADLINE_MIN = Number(process.env.PIXELFLEET_TEST_DEADLINE_MIN ?? 65)
/** the background children, for the deadline's report */
const children = new Map()
let chaosLog = null
setTimeout(() => {
  console.log(`\nnpm test: still running after ${DEADLINE_MIN} min (PIXELFLEET_TEST_DEADLINE_MIN), a hang: ending it. Still running:`)
  console.log(describeDescendants(process.pid))
  if (chaosLog && fs.existsSync(chaosLog)) console.log(`\nthe chaos run's output so far (${chaosLog}), its end:\n${fs.readFileSync(chaosLog, 'utf8').split('\n').slice(-60).join('\n')}`)
  for (const [pid] of children) killTree(pid)
  console.log(`\nnpm test: FAILED (over ${DEADLINE_MIN} min)`)
  process.exit(1)
}, DEADLINE_MIN * 60_000).unref()

/** Remembers a background child until it ends (the deadline ends what is left). */
function track(child) {
  if (child.pid) children.set(child.pid, child)
  child.once('exit', () => children.delete(child.pid))
  return child
}

/** Runs a step in the foreground; a failing step ends `npm test` (after the chaos run, if started). */
function step(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' })
  return result.status ?? 1
}

/** The chaos quick profile in the background, its output into a log file; resolves to its exit code. */
function startChaos() {
  if (!process.env.PIXELFLEET_TEST_POSTGRES_URL) return null
  const missing = ['/usr/lib/rabbitmq/bin/rabbitmq-server', '/usr/sbin/nginx', '/usr/lib/postgresql'].filter((p) => !fs.existsSync(p))
  if (missing.length) {
    console.log(`chaos quick profile skipped: ${missing.join(', ')} not installed (scripts/ensure-rabbitmq.sh, scripts/ensure-postgres.sh)`)
    return null
  }
  const log = path.join(os.tmpdir(), `pixelfleet-chaos-quick-${process.pid}.log`)
  const out = fs.openSync(log, 'w')
  const child = track(
    spawn(process.execPath, [path.join(root, 'scripts/test-chaos.mjs'), '--quick'], {
      cwd: root,
      // the build was just made: the nodes use it as it is
      env: { ...process.env, PIXELFLEET_SKIP_BUILD: '1' },
      stdio: ['ignore', out, out],
    }),
  )
  fs.closeSync(out)
  chaosLog = log
  console.log(`chaos quick profile started in the background (pid ${child.pid}, output in ${log}, printed when it ends)`)
  const since = Date.now()
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
    child.once('error', (error) => {
      fs.appendFileSync(log, `could not start: ${error.message}\n`)
      resolve(1)
    })
  })
  return { log, since, exited }
}

/** Waits for the chaos run, prints its output; returns whether it passed. */
async function finishChaos(chaos) {
  if (!chaos) return true
  const waitedFrom = Date.now()
  console.log('\nwaiting for the chaos quick profile...')
  const code = await chaos.exited
  console.log(`\n===== chaos quick profile (test:chaos --quick): ${seconds(chaos.since)}, of which ${seconds(waitedFrom)} after the other suites =====`)
  process.stdout.write(fs.readFileSync(chaos.log, 'utf8'))
  if (code !== 0) {
    console.log(`\nnpm test: the chaos quick profile FAILED (exit ${code}); its output is above and in ${chaos.log}`)
    return false
  }
  fs.rmSync(chaos.log, { force: true })
  return true
}

/** Runs a step in the background with its output kept, printed when it ends (no interleaving). */
function captured(command, args) {
  return new Promise((resolve) => {
    const child = track(spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] }))
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.once('error', (error) => resolve({ code: 1, output: `${output}could not start ${command}: ${error.message}\n` }))
    child.once('close', (code) => resolve({ code: code ?? 1, output }))
  })
}

/** Runs a step in the foreground without blocking the event loop; resolves to its exit code. */
function foreground(command, args) {
  const child = track(spawn(command, args, { cwd: root, stdio: 'inherit' }))
  const exited = new Promise((resolve) => {
    child.once('error', () => resolve(1))
    child.once('close', (exit, signal) => resolve(exit ?? (signal ? 1 : 0)))
  })
  return { exited }
}

function report(name, result) {
  console.log(`\n===== ${name}: ${result.code === 0 ? 'passed' : `FAILED (exit ${result.code})`} =====`)
  if (result.output.trim()) process.stdout.write(result.output)
}

async function main() {
  const envCode = step(process.execPath, ['scripts/ensure-test-env.mjs'])
  if (envCode !== 0) return envCode
  // The relay's native pump, rebuilt when its source changed since npm install; the tests need it.
  const nativeCode = step(process.execPath, ['scripts/build-native.mjs', '--require'])
  if (nativeCode !== 0) return nativeCode
  // Type check and lint beside the build: each is mostly one thread, so on two cores the three
  // take about the time of the longest instead of their sum (decision 064). The type check is the
  // longest (~30 s after the others on a quiet machine, one core idle): the tests start beside it
  // once the build and lint are done. A failing type check is printed when it ends and fails
  // `npm test`; the tests run on (ending them early would leave their portals behind).
  const since = Date.now()
  const typecheck = captured('npm', ['run', '-s', 'typecheck'])
  const lint = captured('npm', ['run', '-s', 'lint'])
  const buildCode = await foreground('npm', ['run', 'build']).exited
  const lintResult = await lint
  report('lint', lintResult)
  console.log(`lint and build: ${seconds(since)}`)
  if (lintResult.code !== 0 || buildCode !== 0) {
    report('type check', await typecheck)
    return buildCode !== 0 ? buildCode : 1
  }
  const chaos = startChaos()
  const vitest = foreground('npx', ['vitest', 'run', ...vitestArgs])
  let typecheckFailed = false
  void typecheck.then((result) => {
    report('type check', result)
    console.log(`type check: ${seconds(since)}`)
    if (result.code !== 0) {
      typecheckFailed = true
      console.log('npm test: the type check FAILED (above); the tests run on, and npm test will fail')
    }
  })
  let code = await vitest.exited
  await typecheck
  // (not spawnSync: the deadline's timer must be able to fire meanwhile)
  if (code === 0 && !typecheckFailed) code = await foreground(process.execPath, ['scripts/test-scaleout.mjs', '--if-configured', ...vitestArgs]).exited
  // waited for even after a failure: its services (RabbitMQ, PostgreSQL, nginx) are stopped by the suite itself
  const chaosPassed = await finishChaos(chaos)
  const failed = [typecheckFailed && 'the type check', code !== 0 && 'a test suite', !chaosPassed && 'the chaos quick profile'].filter(Boolean)
  console.log(`\nnpm test: ${failed.length ? `FAILED (${failed.join(' and ')})` : 'passed'} in ${seconds(started)}`)
  return code !== 0 ? code : typecheckFailed || !chaosPassed ? 1 : 0
}

process.exitCode = await main()
