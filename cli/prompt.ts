import { read } from 'read'
import { usageError } from './errors'

/**
 * Asks one line on the terminal through `read` (npm's maintained prompt: a muted output stream
 * for passwords, no reaching into readline's internals). Without a terminal the caller must pass
 * the value as an option. Prompts go to stderr so `pixelfleet ... --json | jq` stays clean.
 */
async function askLine(question: string, what: string, silent: boolean): Promise<string> {
  if (!process.stdin.isTTY) throw usageError(`${what} is required (no terminal to ask on)`)
  try {
    const answer = await read({ prompt: question, silent, input: process.stdin, output: process.stderr })
    // a hidden answer's Enter is not echoed either: end the prompt's line
    if (silent) process.stderr.write('\n')
    return answer
  } catch (error) {
    // Ctrl-C at the prompt: `read` rejects with 'canceled'
    if (error instanceof Error && error.message === 'canceled') throw usageError(`${what} was not entered`)
    throw error
  }
}

/** Asks one line on the terminal; without a terminal the caller must pass the value as an option. */
export const ask = (question: string, what: string) => askLine(question, what, false)

/** Like ask, but the typed characters are not echoed (passwords). */
export const askHidden = (question: string, what: string) => askLine(question, what, true)
