/**
 * The relay's modules (relay/, app/domain/relay/) import each other without circles (issue 27):
 * a circle makes load order decide which export is still undefined. Type-only imports count too,
 * so a type does not pull two modules back into one knot.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(__dirname, '../..')
const FOLDERS = ['relay', 'app/domain/relay']
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g

function moduleFiles() {
  return FOLDERS.flatMap((folder) => readdirSync(path.join(ROOT, folder)).filter((name) => name.endsWith('.ts')).map((name) => path.join(folder, name)))
}

/** The file an import names, relative to the repository root, when it is one of the relay's modules. */
function resolve(from: string, specifier: string, known: Set<string>) {
  const bare = specifier.startsWith('~/') ? path.join('app', specifier.slice(2)) : specifier.startsWith('.') ? path.join(path.dirname(from), specifier) : null
  if (!bare) return null
  for (const candidate of [bare, `${bare}.ts`, path.join(bare, 'index.ts')]) if (known.has(candidate)) return candidate
  return null
}

/** Every elementary circle's first appearance in a depth-first walk, as a list of files. */
function findCircles(graph: Map<string, string[]>) {
  const circles: string[][] = []
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (file: string) => {
    state.set(file, 'open')
    stack.push(file)
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') circles.push([...stack.slice(stack.indexOf(next)), next])
      else if (!state.has(next)) visit(next)
    }
    stack.pop()
    state.set(file, 'done')
  }
  for (const file of graph.keys()) if (!state.has(file)) visit(file)
  return circles
}

describe('relay modules', () => {
  it('import each other without circles', () => {
    const files = moduleFiles()
    const known = new Set(files)
    const graph = new Map<string, string[]>()
    for (const file of files) {
      const source = readFileSync(path.join(ROOT, file), 'utf8')
      const targets = [...source.matchAll(IMPORT)].map((m) => resolve(file, m[1] ?? m[2], known)).filter((t): t is string => t !== null)
      graph.set(file, [...new Set(targets)])
    }
    expect(graph.get('relay/relay.server.ts')?.length).toBeGreaterThan(3) // the parser sees the imports at all
    expect(findCircles(graph).map((circle) => circle.join(' -> '))).toEqual([])
  })

  it('the circle finder finds a circle', () => {
    expect(findCircles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']]]))).toEqual([['a', 'b', 'c', 'a']])
  })
})
