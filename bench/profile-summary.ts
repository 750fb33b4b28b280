// node --import tsx bench/profile-summary.ts <file.cpuprofile> [--top 30] [--by file|function] [--under <text>]:
// where a `node --cpu-prof` profile (bench/pages.ts --profile, bench/idle.ts --profile) spent its
// CPU: self time per function (or per source file), and with --under the total time of the calls
// made below the functions whose name or file contains <text> (what one middleware costs in all);
// --last <s> counts only the samples of the profile's last s seconds (the measured window, not the startup);
// --skip-last <s> ends that window s seconds before the profile's end (the page measured before the last one).
import fs from 'node:fs'

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[]; hitCount?: number }
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number }

const args = process.argv.slice(2)
const arg = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback)
const file = args[0]
if (!file || !fs.existsSync(file)) throw new Error('usage: bench/profile-summary.ts <file.cpuprofile> [--top N] [--by file|function] [--under text] [--last s] [--skip-last s] [--inclusive f,g]')
const TOP = Number(arg('--top', '30'))
const BY = arg('--by', 'function')
const UNDER = arg('--under', '')
const LAST_S = Number(arg('--last', '0'))
const SKIP_LAST_S = Number(arg('--skip-last', '0'))

const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile
const byId = new Map(profile.nodes.map((n) => [n.id, n]))
const parent = new Map<number, number>()
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)

// self time per node from the samples and their time deltas (µs)
const selfUs = new Map<number, number>()
const until = profile.endTime - SKIP_LAST_S * 1e6
const from = LAST_S > 0 ? until - LAST_S * 1e6 : -Infinity
let at = profile.startTime
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i] ?? 0
  if (at >= from && at <= until) selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0))
})
const totalUs = LAST_S > 0 ? Math.min(LAST_S * 1e6, profile.endTime - profile.startTime) : profile.endTime - profile.startTime
const shortUrl = (url: string) => url.replace(/^file:\/\//, '').replace(/.*\/node_modules\//, 'nm:').replace(/.*\/(app|server|build|ingest|broker|relay)\//, '$1/')
const label = (n: Node) => (BY === 'file' ? shortUrl(n.callFrame.url) || `(${n.callFrame.functionName || 'native'})` : `${n.callFrame.functionName || '(anonymous)'} ${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`)

const sums = new Map<string, number>()
let idleUs = 0
for (const [id, us] of selfUs) {
  const n = byId.get(id)!
  if (n.callFrame.functionName === '(idle)') {
    idleUs += us
    continue
  }
  if (UNDER) {
    // charge the sample to the nearest ancestor matching UNDER, if any
    let at: number | undefined = id
    while (at !== undefined) {
      const a = byId.get(at)!
      if (`${a.callFrame.functionName} ${a.callFrame.url}`.includes(UNDER)) break
      at = parent.get(at)
    }
    if (at === undefined) continue
  }
  sums.set(label(n), (sums.get(label(n)) ?? 0) + us)
}
// --inclusive a,b: the time spent in and below functions named exactly a, b (outermost call counted once)
const INCLUSIVE = arg('--inclusive', '')
if (INCLUSIVE) {
  for (const name of INCLUSIVE.split(',')) {
    let us = 0
    for (const [id, self] of selfUs) {
      for (let a: number | undefined = id; a !== undefined; a = parent.get(a)) {
        if (byId.get(a)!.callFrame.functionName === name) {
          us += self
          break
        }
      }
    }
    console.log(`inclusive ${(us / 1e3).toFixed(1).padStart(9)} ms  ${name}`)
  }
}
const busyUs = [...sums.values()].reduce((a, b) => a + b, 0)
console.log(`profile ${(totalUs / 1e6).toFixed(1)} s, idle ${(idleUs / 1e6).toFixed(1)} s, counted ${(busyUs / 1e3).toFixed(0)} ms${UNDER ? ` under '${UNDER}'` : ''}`)
for (const [name, us] of [...sums].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${(us / 1e3).toFixed(1).padStart(9)} ms ${((100 * us) / busyUs).toFixed(1).padStart(5)} %  ${name}`)
