/**
 * What `npm test` relies on when a run hangs (decision 103): the report names the processes below
 * a given one, and ending the run kills them all, grandchildren included.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { describeDescendants, killTree } from '../../scripts/process-tree.mjs'
import { processAlive } from '../../server/db-lock'

describe('the process tree of a run', () => {
  it('names the processes below a parent and kills them, grandchildren included', async () => {
    // a shell whose child sleeps: the grandchild of this test
    const parent = spawn('sh', ['-c', 'sleep 300 & echo $!; wait'], { stdio: ['ignore', 'pipe', 'ignore'] })
    const exited = new Promise((resolve) => parent.once('exit', resolve))
    const grandchild = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()))))
    const report = describeDescendants(process.pid)
    // pid, elapsed time, CPU %, command line; a child indented under its parent
    const line = (pid: number, command: string) => new RegExp(`^( +)${pid} \\S+ +\\S+ ${command}`, 'm')
    const parentIndent = report.match(line(parent.pid!, 'sh -c sleep 300'))?.[1]
    expect(parentIndent, report).toBeDefined()
    expect(report.match(line(grandchild, 'sleep 300'))?.[1]).toBe(`${parentIndent}  `)

    killTree(parent.pid!)
    await exited
    // generous: a kill lands late on a busy machine (the poll ends as soon as it holds)
    await expect.poll(() => processAlive(grandchild), { timeout: 60_000, interval: 50 }).toBe(false)
    expect(describeDescendants(process.pid)).not.toContain('sleep 300')
  })

  it('counts a process that ended but was never reaped (a zombie) as gone', async () => {
    // the shell turns into `sleep`, which never reaps its child; the child is killed only once the
    // shell has done so (a child that ended before the exec was reaped by the shell itself: a race
    // a fast machine lost)
    const parent = spawn('sh', ['-c', 'sleep 298 & echo $!; exec sleep 299'], { stdio: ['ignore', 'pipe', 'ignore'] })
    try {
      const child = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()))))
      await expect.poll(() => readFileSync(`/proc/${parent.pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim(), { timeout: 60_000, interval: 50 }).toBe('sleep 299')
      process.kill(child, 'SIGKILL')
      await expect.poll(() => processAlive(child), { timeout: 60_000, interval: 50 }).toBe(false)
      // the signal alone would still say it is there
      expect(() => process.kill(child, 0)).not.toThrow()
      expect(processAlive(parent.pid!)).toBe(true)
    } finally {
      parent.kill('SIGKILL')
    }
  })
})
