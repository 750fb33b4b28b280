import type { ReportedHookContext, Reporter, TestCase, TestModule } from 'vitest/node'
import { describeDescendants } from '../../scripts/process-tree.mjs'

/**
 * Names a test file that runs far longer than any does (a hang): every few minutes past
 * PIXELFLEET_TEST_SLOW_FILE_MIN (10 by default) it prints the file, how long it has run, the test
 * or hook it is in and the processes the run has started. Vitest's own time limits cannot fire in
 * a worker whose event loop is blocked, and CI ends a run that hangs after 90 minutes with nothing
 * said; these lines say where. It runs in Vitest's main process, so a frozen worker cannot stop it.
 */
export default class SlowFileReporter implements Reporter {
  private readonly running = new Map<string, { since: number; now: string }>()
  private readonly limitMs = Number(process.env.PIXELFLEET_TEST_SLOW_FILE_MIN ?? 10) * 60_000
  private readonly timer = setInterval(() => this.check(), 60_000)
  private lastReport = new Map<string, number>()

  constructor() {
    // never keeps Vitest alive on its own
    this.timer.unref()
  }

  onTestModuleStart(module: TestModule) {
    this.running.set(module.moduleId, { since: Date.now(), now: 'collecting' })
  }

  onTestModuleEnd(module: TestModule) {
    this.running.delete(module.moduleId)
    this.lastReport.delete(module.moduleId)
  }

  onTestCaseReady(test: TestCase) {
    const file = this.running.get(test.module.moduleId)
    if (file) file.now = `test "${test.fullName}" (since ${new Date().toISOString().slice(11, 19)} UTC)`
  }

  onHookStart(hook: ReportedHookContext) {
    const { entity } = hook
    const file = this.running.get(entity.type === 'module' ? entity.moduleId : entity.module.moduleId)
    if (file) file.now = `${hook.name} of ${entity.type === 'module' ? 'the file' : `"${entity.fullName}"`} (since ${new Date().toISOString().slice(11, 19)} UTC)`
  }

  onTestRunEnd() {
    clearInterval(this.timer)
  }

  private check() {
    const now = Date.now()
    const slow = [...this.running].filter(([file, { since }]) => now - since > this.limitMs && now - (this.lastReport.get(file) ?? 0) >= 5 * 60_000)
    if (!slow.length) return
    const lines = slow.map(([file, { since, now: where }]) => {
      this.lastReport.set(file, now)
      return `  ${file}: running for ${Math.round((now - since) / 60_000)} min; last heard of: ${where}`
    })
    process.stdout.write(`\n[slow test file] over ${this.limitMs / 60_000} min, a hang?\n${lines.join('\n')}\nprocesses this run started:\n${describeDescendants(process.pid)}\n`)
  }
}

