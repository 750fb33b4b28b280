import readline from 'node:readline'
import { usageError } from './errors'

/** Asks one line on the terminal; without a terminal the caller must pass the value as an option. */
export async function ask(question: string, what: string): Promise<string> {
  if (!process.stdin.isTTY) throw usageError(`${what} is required (no terminal to ask on)`)
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr })
  try {
    return await new Promise<string>((resolve) => rl.question(question, resolve))
  } finally {
    rl.close()
  }
}

/** Like ask, but the typed characters are not echoed (passwords). */
export async function askHidden(question: string, what: string): Promise<string> {
  if (!process.stdin.isTTY) throw usageError(`${what} is required (no terminal to ask on)`)
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: true })
  const output = rl as unknown as { _writeToOutput: (text: string) => void }
  let muted = false
  const write = output._writeToOutput.bind(rl)
  output._writeToOutput = (text: string) => {
    if (!muted) write(text)
  }
  try {
    return await new Promise<string>((resolve) => {
      rl.question(question, (answer) => {
        process.stderr.write('\n')
        resolve(answer)
      })
      muted = true
    })
  } finally {
    rl.close()
  }
}
