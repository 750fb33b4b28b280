import type http from 'node:http'
import { type Readable } from 'node:stream'

/** Answers up to this size that arrive whole at once are sent to the browser in one write. */
const SMALL_BODY_BYTES = 64 * 1024

/**
 * Sends the agent's answer to the browser. What arrives with the headers in the same turn of the
 * event loop (a whole small page, usually) leaves in ONE write with a Content-Length: one syscall
 * here and one wakeup of the browser's side. Anything longer or slower (downloads, event streams)
 * is handed to `pipeOn` from the next turn. Returns `cancel` for an answer that fails before it was
 * sent (the caller then answers 502 itself).
 */
export function sendAgentAnswer(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  answer: Readable,
  status: number,
  headers: http.OutgoingHttpHeaders,
  pipeOn: (from: Readable, to: http.ServerResponse) => void,
): { cancel: () => void } {
  const chunks: Buffer[] = []
  let size = 0
  const collect = (chunk: Buffer) => {
    chunks.push(chunk)
    size += chunk.length
    if (size > SMALL_BODY_BYTES) stream()
  }
  const whole = () => {
    clearImmediate(pending)
    if (res.destroyed || res.headersSent) return
    if (req.method !== 'HEAD' && status !== 204 && status !== 304 && headers['content-length'] === undefined) headers['content-length'] = String(size)
    res.writeHead(status, headers)
    res.end(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks))
  }
  const stream = () => {
    clearImmediate(pending)
    answer.off('data', collect).off('end', whole)
    // the answer failed meanwhile and the browser already has its 502 (or left)
    if (res.destroyed || res.headersSent) return void answer.resume()
    res.writeHead(status, headers)
    for (const chunk of chunks) res.write(chunk)
    pipeOn(answer, res)
  }
  const pending = setImmediate(stream)
  answer.on('data', collect).once('end', whole)
  return { cancel: () => clearImmediate(pending) }
}
