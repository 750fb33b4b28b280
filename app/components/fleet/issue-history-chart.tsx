import { useEffect, useState } from 'react'
import IssueHistoryBody from './issue-history-body'
import { useNearViewport } from './use-near-viewport'

const WIDTH = 700
const HEIGHT = 200

/**
 * The Issues tab's 'Issue History' bar chart (last 10 days, stacked by severity, 700 x 200 at
 * most; narrower screens get a narrower chart so all ten days, today's included, stay in view).
 * The server renders a box of the chart's size only (the chart needs the measured width); the
 * browser draws the chart once the box is near the screen, so nothing shifts when it arrives.
 */
export function IssueHistoryChart({ history }: { history: Record<string, number | string>[] }) {
  const [area, near] = useNearViewport<HTMLDivElement>()
  const [width, setWidth] = useState(WIDTH)
  useEffect(() => {
    const element = area.current
    if (!element || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(([entry]) => setWidth(Math.max(0, Math.floor(entry.contentRect.width))))
    observer.observe(element)
    return () => observer.disconnect()
  }, [area])
  return (
    <div ref={area} style={{ maxWidth: WIDTH, height: HEIGHT }} className="w-full" data-chart="Issue History">
      {near && width > 0 ? (
        <IssueHistoryBody history={history} width={width} height={HEIGHT} />
      ) : null}
    </div>
  )
}
