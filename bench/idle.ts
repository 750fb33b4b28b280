// npm run bench:idle [-- --seconds 60] [-- --settle 20] [-- --profile] [-- --env NAME=value ...] [-- --pollers]:
// what the production server costs doing nothing. It starts on the bench database (bench/seed-fleet.ts,
// 10,000 agents; no simulated agents, nobody signed in), lets it settle, then reads its process CPU
// time (/proc) over the window: cores = CPU seconds / wall seconds; target < 0.02 core. With
// --profile the server runs under `node --cpu-prof` and the summary of bench/profile-summary.ts
// says what the idle CPU went to (the startup is in the profile too: read the functions, not the total).
// --pollers adds what each periodic job costs (bench/idle-pollers.ts), to say how much of the idle
// cost they are.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { measurePollers } from './idle-pollers'
import { benchDatabase, cpuMs, loadAverage, root, startPortal } from './portal'

const args = process.argv.slice(2)
const arg = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback)
const SECONDS = Number(arg('--seconds', '60'))
const SETTLE_S = Number(arg('--settle', '20'))
const PROFILE = args.includes('--profile')
const POLLERS = args.includes('--pollers')
const TARGET_CORES = 0.02
const extraEnv = Object.fromEntries(args.flatMap((a, i) => (args[i - 1] === '--env' ? [a.split('=', 2) as [string, string]] : [])))

const file = await benchDatabase(undefined, true)
const profileDir = path.join(root, `bench/.out/idle-profile-${Date.now()}`)
const portal = await startPortal(file, { SIMULATOR_AGENTS: '0', ...extraEnv }, PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])
let cores = NaN
try {
  // startup work (migrations check, first sweeps, JIT) is not what idling costs
  await new Promise((r) => setTimeout(r, SETTLE_S * 1000))
  const load = loadAverage()
  const cpuBefore = cpuMs(portal.pid)
  const started = performance.now()
  await new Promise((r) => setTimeout(r, SECONDS * 1000))
  const cpu = cpuMs(portal.pid) - cpuBefore
  const wall = (performance.now() - started) / 1000
  cores = cpu / 1000 / wall
  console.log(`idle server on ${path.relative(root, file)}: ${cpu.toFixed(0)} ms CPU in ${wall.toFixed(1)} s = ${cores.toFixed(4)} core (target < ${TARGET_CORES}); load average ${load} -> ${loadAverage()}`)
  if (Object.keys(extraEnv).length) console.log('with', extraEnv)
} finally {
  await portal.stop()
}
if (PROFILE) {
  const profile = fs.readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'))
  if (profile) {
    const at = path.join(profileDir, profile)
    console.log(`\nCPU profile ${path.relative(root, at)} (whole run, startup included):`)
    console.log(execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench/profile-summary.ts'), at, '--top', '25'], { cwd: root, encoding: 'utf8' }))
  }
}
if (POLLERS) {
  let jobs = 0
  for (const r of await measurePollers(file)) {
    jobs += r.cores
    console.log(`  ${r.name.padEnd(30)} every ${String(r.intervalMs / 1000).padStart(4)} s: ${r.cpuMsPerRun.toFixed(2).padStart(7)} ms CPU per run = ${r.cores.toFixed(4)} core`)
  }
  console.log(`  periodic jobs together ${jobs.toFixed(4)} core of the idle server's ${cores.toFixed(4)} (${((100 * jobs) / cores).toFixed(0)} %)`)
}
process.exitCode = cores < TARGET_CORES ? 0 : 1
