// `npm run lint` (after ESLint): fails when the project's modules import each other in a circle.
// A circle means neither module can be understood, tested or moved without the other, and at
// runtime one of them may see the other half-initialised. Counted between our own files: imports
// and re-exports, `import type` too (a type shared by two modules belongs in a third), and
// `import('...')` (loading later does not untangle two modules), resolved with tsconfig.json so
// `~/` works. Not counted: node_modules.
// Prints each circle as a chain of paths; `--json` prints them as JSON; `--folders` prints which
// top-level folders import which (the picture in docs/architecture.md).
import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

const root = path.resolve(import.meta.dirname, '..')
const configFile = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile)
const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root)
const files = parsed.fileNames.filter((f) => /\.(ts|tsx|js|jsx|mjs)$/.test(f) && !f.endsWith('.d.ts') && !f.includes('/node_modules/'))
const inProject = new Set(files.map((f) => path.resolve(f)))
const host = ts.createCompilerHost(parsed.options)

/** The module specifiers a file imports, re-exports or loads with `import('...')` (type-only ones too). */
function importedSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false)
  const specifiers: string[] = []
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      specifiers.push(node.moduleSpecifier.text)
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      specifiers.push(node.arguments[0].text)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return specifiers
}

const graph = new Map<string, string[]>()
for (const file of files) {
  const from = path.resolve(file)
  const targets = new Set<string>()
  for (const specifier of importedSpecifiers(from)) {
    const resolved = ts.resolveModuleName(specifier, from, parsed.options, host).resolvedModule
    if (!resolved || resolved.isExternalLibraryImport) continue
    const target = path.resolve(resolved.resolvedFileName)
    if (inProject.has(target) && target !== from) targets.add(target)
  }
  graph.set(from, [...targets])
}

/** Tarjan's strongly connected components: every component of two or more files is a circle. */
function circles(): string[][] {
  let index = 0
  const indices = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (start: string) => {
    // iterative: deep import chains must not overflow the call stack
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }]
    indices.set(start, index)
    low.set(start, index++)
    stack.push(start)
    onStack.add(start)
    while (work.length) {
      const frame = work[work.length - 1]!
      const edges = graph.get(frame.node) ?? []
      if (frame.next < edges.length) {
        const to = edges[frame.next++]!
        if (!indices.has(to)) {
          indices.set(to, index)
          low.set(to, index++)
          stack.push(to)
          onStack.add(to)
          work.push({ node: to, next: 0 })
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, indices.get(to)!))
        continue
      }
      work.pop()
      if (work.length) low.set(work[work.length - 1]!.node, Math.min(low.get(work[work.length - 1]!.node)!, low.get(frame.node)!))
      if (low.get(frame.node) === indices.get(frame.node)) {
        const component: string[] = []
        for (let member = stack.pop()!; ; member = stack.pop()!) {
          onStack.delete(member)
          component.push(member)
          if (member === frame.node) break
        }
        if (component.length > 1) found.push(component)
      }
    }
  }
  for (const node of graph.keys()) if (!indices.has(node)) visit(node)
  return found
}

/** One concrete loop through a component, for a readable message: a -> b -> ... -> a. */
function loopThrough(component: string[]): string[] {
  const members = new Set(component)
  const start = [...component].sort()[0]!
  const previous = new Map<string, string>([[start, start]])
  const queue = [start]
  while (queue.length) {
    const node = queue.shift()!
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to)) continue
      if (to === start) {
        const chain = [node]
        while (chain[0] !== start) chain.unshift(previous.get(chain[0]!)!)
        return [...chain, start]
      }
      if (!previous.has(to)) {
        previous.set(to, node)
        queue.push(to)
      }
    }
  }
  return component
}

/**
 * Circles tolerated for now, each only as exactly these files (none: the relay, CLI and admin
 * circles of issue #27 are gone). An entry whose circle is gone is reported, not failed.
 */
const KNOWN_CIRCLES: string[][] = []

const relative = (file: string) => path.relative(root, file)
const sameFiles = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n')
const found = circles()
const isKnown = (component: string[]) => KNOWN_CIRCLES.some((k) => sameFiles(k, component.map(relative)))
const known = found.filter(isKnown)
const loops = found.filter((c) => !isKnown(c)).map((c) => loopThrough(c).map(relative))
const gone = KNOWN_CIRCLES.filter((k) => !known.some((c) => sameFiles(k, c.map(relative))))
if (gone.length) {
  console.log(`Known import circles that are gone (remove them from KNOWN_CIRCLES in ${relative(import.meta.filename)}):`)
  for (const circle of gone) console.log(`  ${circle.join(' <-> ')}`)
}
if (process.argv.includes('--folders')) {
  const top = (file: string) => relative(file).split('/').slice(0, relative(file).startsWith('app/') ? 2 : 1).join('/')
  const edges = new Map<string, number>()
  for (const [from, targets] of graph) for (const to of targets) if (top(from) !== top(to)) edges.set(`${top(from)} -> ${top(to)}`, (edges.get(`${top(from)} -> ${top(to)}`) ?? 0) + 1)
  for (const [edge, count] of [...edges].sort()) console.log(`${edge} (${count})`)
}
if (process.argv.includes('--json')) console.log(JSON.stringify(loops, null, 2))
else if (loops.length) {
  console.error(`Import circles (${loops.length}); break each by moving the shared part into a module both import:`)
  for (const loop of loops) console.error(`  ${loop.join(' -> ')}`)
} else console.log(`No new import circles among ${graph.size} modules (${known.length} known).`)
process.exitCode = loops.length ? 1 : 0
