import { type LoaderFunctionArgs } from '@remix-run/node'
import { subscribeViewer } from '~/domain/events/live-feed.server'
import { requireUser } from '~/utils/auth.server'

const HEARTBEAT_MS = 25_000

/**
 * Server-sent events: the change events of organizations the signed-in user may see, merged with
 * a 100 ms debounce. Pages subscribe through useLiveRevalidate and reload their data.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const encoder = new TextEncoder()
  let cleanup = () => {}
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text))
        } catch {
          cleanup()
        }
      }
      const unsubscribe = subscribeViewer(actor, (events) => send(`event: change\ndata: ${JSON.stringify(events)}\n\n`))
      const heartbeat = setInterval(() => send(': heartbeat\n\n'), HEARTBEAT_MS)
      cleanup = () => {
        unsubscribe()
        clearInterval(heartbeat)
      }
      request.signal.addEventListener('abort', () => {
        cleanup()
        try {
          controller.close()
        } catch {
          // already closed
        }
      })
      send('retry: 2000\n: connected\n\n')
    },
    cancel() {
      cleanup()
    },
  })
  return new Response(stream, {
    headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' },
  })
}
