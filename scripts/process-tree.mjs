// The processes a test run started, for a hang's report and for ending a run that overran
// (scripts/test-all.mjs, tests/setup/slow-file-reporter.ts). Linux `ps`.
import { spawnSync } from 'node:child_process'

/** pid, parent and a printable line of every process. */
function processes() {
  const ps = spawnSync('ps', ['-e', '-o', 'pid=,ppid=,etime=,pcpu=,args='], { encoding: 'utf8', timeout: 10_000 })
  return (ps.stdout ?? '')
    .split('\n')
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/))
    .filter((m) => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), text: `${m[1]} ${m[3]}`.slice(0, 220) }))
}

/** The processes below `root`, each under its parent: pid, elapsed time, CPU %, command line. */
export function describeDescendants(root) {
  const rows = processes()
  const lines = []
  const walk = (pid, depth) => {
    for (const row of rows.filter((r) => r.ppid === pid)) {
      lines.push(`${'  '.repeat(depth)}${row.text}`)
      walk(row.pid, depth + 1)
    }
  }
  walk(root, 1)
  return lines.join('\n') || '  (none)'
}

/** SIGKILLs `root` and everything below it (children first found, then all at once). */
export function killTree(root) {
  const rows = processes()
  const pids = [root]
  for (let i = 0; i < pids.length; i++) pids.push(...rows.filter((r) => r.ppid === pids[i]).map((r) => r.pid))
  for (const pid of pids.reverse()) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
}
