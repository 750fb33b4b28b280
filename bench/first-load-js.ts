// node --import tsx bench/first-load-js.ts [--build dir] [--build dir2]: the JavaScript a first load of each
// main page fetches, from a production build's Remix manifest: the entry, the route modules of the page's
// route chain and their static imports (what the page's <link rel=modulepreload> list names), as files,
// raw KB and gzip KB (level 9). Lazy chunks (React.lazy, import()) are not counted: they load on first use.
// Two --build directories print side by side (docs/benchmarks.md, "Web request cost", decision 084).
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { type ServerBuild } from '@remix-run/node'
import { root } from './portal'

const args = process.argv.slice(2)
const builds = args.flatMap((a, i) => (a === '--build' && args[i + 1] ? [path.resolve(root, args[i + 1])] : []))
if (builds.length === 0) builds.push(path.join(root, 'build'))

const PAGES: [string, string][] = [
  ['login', 'routes/login.($provider).($username)'],
  ['about', 'routes/_app.about'],
  ['organization list', 'routes/_app.organization.list'],
  ['dashboard', 'routes/_app.organization.$organizationId.dashboard'],
  ['agents list', 'routes/_app.organization.$organizationId.agents._index'],
  ['agent detail', 'routes/_app.organization.$organizationId.agents.$agentId'],
  ['projects list', 'routes/_app.organization.$organizationId.projects._index'],
  ['project devices', 'routes/_app.organization.$organizationId.projects.$projectId.devices'],
  ['members', 'routes/_app.organization.$organizationId.members'],
  ['notes', 'routes/_app.organization.$organizationId.notes.($noteId)'],
]

async function firstLoads(dir: string) {
  const build = (await import(path.join(dir, 'server/index.js'))) as ServerBuild
  const { assets } = build
  const sizes = new Map<string, { raw: number; gzip: number }>()
  const size = (url: string) => {
    let s = sizes.get(url)
    if (!s) {
      const body = fs.readFileSync(path.join(dir, 'client', url))
      s = { raw: body.length, gzip: zlib.gzipSync(body, { level: 9 }).length }
      sizes.set(url, s)
    }
    return s
  }
  const result = new Map<string, { files: number; raw: number; gzip: number }>()
  for (const [name, id] of PAGES) {
    const route = assets.routes[id]
    if (!route) {
      result.set(name, { files: 0, raw: 0, gzip: 0 })
      continue
    }
    const urls = new Set<string>([assets.url, assets.entry.module, ...assets.entry.imports])
    for (let r: (typeof assets.routes)[string] | undefined = route; r; r = r.parentId ? assets.routes[r.parentId] : undefined) {
      urls.add(r.module)
      for (const i of r.imports ?? []) urls.add(i)
    }
    let raw = 0
    let gzip = 0
    for (const u of urls) {
      const s = size(u)
      raw += s.raw
      gzip += s.gzip
    }
    result.set(name, { files: urls.size, raw, gzip })
  }
  return result
}

const all = await Promise.all(builds.map(firstLoads))
const kb = (n: number) => (n / 1024).toFixed(1)
console.log(`| page | ${builds.map((b) => `${path.relative(root, b)}: files, raw KB, gzip KB`).join(' | ')} |`)
console.log(`|---|${builds.map(() => '---').join('|')}|`)
for (const [name] of PAGES) console.log(`| ${name} | ${all.map((r) => { const x = r.get(name)!; return `${x.files}, ${kb(x.raw)}, ${kb(x.gzip)}` }).join(' | ')} |`)
