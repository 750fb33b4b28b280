import { type LoaderFunctionArgs } from '@remix-run/node'
import { changesSince } from '~/domain/events/change-log.server'
import { subscribeViewer } from '~/domain/events/live-feed.server'
import { requireUser } from '~/utils/auth.server'

const HEARTBEAT_MS = 25_000

/**
 * Server-sent events: the change events of organizations the signed-in user may see, merged with
 * a 100 ms debounce. Pages subscribe through useLiveRevalidate and reload their data.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  // ?since=: the page's render mark; its later changes are replayed, or `resync` says reload everything
  const since = new URL(request.url).searchParams.get('since')
  const replay = since ? changesSince(since) : null
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
      const unsubscribe = subscribeViewer(actor, (events) => send(`event: change\ndata: ${JSON.stringify(events)}\n\n`), replay ?? [])
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
      send(since && !replay ? 'retry: 2000\nevent: resync\ndata: 1\n\n' : 'retry: 2000\n: connected\n\n')
    },
    cancel() {
      cleanup()
    },
  })
  return new Response(stream, {
    headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' },
  })
}
