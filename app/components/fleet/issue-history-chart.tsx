import { lazy, Suspense } from 'react'
import { useNearViewport } from './use-near-viewport'

const IssueHistoryBody = lazy(() => import('./issue-history-body'))

const WIDTH = 700
const HEIGHT = 200

/**
 * The Issues tab's 'Issue History' bar chart (last 10 days, stacked by severity, 700 x 200). The
 * server renders a box of the chart's size only: rendering recharts on the server cost ~20 ms of
 * CPU per page view; in the browser the chart's chunk loads once the box is near the screen, so
 * nothing shifts when it arrives.
 */
export function IssueHistoryChart({ history }: { history: Record<string, number | string>[] }) {
  const [area, near] = useNearViewport<HTMLDivElement>()
  return (
    <div ref={area} style={{ width: WIDTH, height: HEIGHT }} data-chart="Issue History">
      {near ? (
        <Suspense fallback={null}>
          <IssueHistoryBody history={history} width={WIDTH} height={HEIGHT} />
        </Suspense>
      ) : null}
    </div>
  )
}
