import { spawn } from 'node:child_process'

export type Exited = { status: number | null; stdout: string; stderr: string }

/**
 * Runs a child process to its end without blocking the test's event loop. spawnSync would freeze
 * the vitest worker meanwhile: its pending calls to the main process then time out
 * (`[vitest-worker]: Timeout calling "onTaskUpdate"`) when the child takes long on a busy machine.
 * A child still running after `timeoutMs` is killed (status null).
 */
export function runToExit(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<Exited> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 180_000)
    child.once('error', (error) => (clearTimeout(timer), reject(error)))
    child.once('close', (code) => (clearTimeout(timer), resolve({ status: code, stdout, stderr })))
  })
}
