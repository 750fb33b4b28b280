// The download ceiling of any relay on this machine, measured beside it: bench/relay/forwarder.c
// (a C forwarder that only moves bytes) in front of the agent's web UI, one hop and two hops
// (the relay path has two: the relay and the agent's tunnel). A relay cannot beat the same
// number of hops that do nothing else, so its download ratio is read against these.
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'

const run = promisify(execFile)
const source = path.join(import.meta.dirname, 'forwarder.c')
const binary = path.join(import.meta.dirname, '..', '.data', 'forwarder')

export type ForwardingCeiling = { oneHopPort: number; twoHopsPort: number; pids: number[]; close: () => void }

/** Compiles the forwarder when it is missing or older than its source; null (with why) without a C compiler. */
async function build(): Promise<string | null> {
  if (fs.existsSync(binary) && fs.statSync(binary).mtimeMs >= fs.statSync(source).mtimeMs) return null
  fs.mkdirSync(path.dirname(binary), { recursive: true })
  try {
    await run('cc', ['-O2', '-pthread', '-o', binary, source])
    return null
  } catch (error) {
    return `cc failed: ${(error as Error).message.split('\n')[0]}`
  }
}

function forwarder(upstreamPort: number, mode: 'copy' | 'splice'): Promise<{ proc: ChildProcess; port: number }> {
  const proc = spawn(binary, [String(upstreamPort), mode], { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', (line) => resolve({ proc, port: (JSON.parse(line) as { port: number }).port }))
    proc.once('error', reject).once('exit', (code) => reject(new Error(`forwarder exited with ${code}`)))
  })
}

/** Two chains in front of `webPort`: one forwarder, and two in a row. */
export async function startForwardingCeiling(webPort: number, mode: 'copy' | 'splice'): Promise<ForwardingCeiling | string> {
  const failed = await build()
  if (failed) return failed
  const oneHop = await forwarder(webPort, mode)
  const second = await forwarder(webPort, mode)
  const twoHops = await forwarder(second.port, mode)
  const procs = [oneHop.proc, second.proc, twoHops.proc]
  return {
    oneHopPort: oneHop.port,
    twoHopsPort: twoHops.port,
    pids: procs.map((p) => p.pid!),
    close: () => procs.forEach((p) => p.kill('SIGKILL')),
  }
}
