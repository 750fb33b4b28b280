import { type ReactNode } from 'react'
import type { ReadinessReport } from '~/domain/readiness/readiness.server'
import { formatCount } from '~/utils/format-time'

/**
 * Styles of the readiness report. Plain CSS (not Tailwind) so the downloaded HTML file looks the
 * same as the page; the print rules hide the console around it (sidebar, header) and lay it out on
 * A4 with page breaks between sections. The report is a white sheet in the dark theme too (it is
 * the document that gets printed and downloaded); its grey text is slate-600 for 4.5:1 contrast.
 */
export const READINESS_CSS = `
.rr { font: 13px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: #0f172a; max-width: 1040px; background: #fff; color-scheme: light; padding: 12px 16px; border-radius: 8px; }
.rr h1 { font-size: 20px; margin: 0 0 2px; }
.rr h2 { font-size: 15px; margin: 20px 0 6px; padding-bottom: 4px; border-bottom: 1px solid #e2e8f0; }
.rr h3 { font-size: 13px; margin: 12px 0 4px; }
.rr .rr-meta { color: #475569; font-size: 12px; margin: 0 0 12px; }
.rr .rr-cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 8px; }
.rr .rr-card { border: 1px solid #e2e8f0; border-radius: 6px; padding: 8px 10px; background: #fff; }
.rr .rr-card b { display: block; font-size: 20px; font-variant-numeric: tabular-nums; }
.rr .rr-card span { color: #475569; font-size: 12px; }
.rr .rr-card.rr-bad b { color: #b91c1c; }
.rr .rr-verdict { display: inline-block; border-radius: 999px; padding: 2px 10px; font-weight: 600; font-size: 12px; margin-bottom: 10px; }
.rr .rr-ready { background: #dcfce7; color: #166534; }
.rr .rr-notready { background: #fee2e2; color: #991b1b; }
.rr table { width: 100%; border-collapse: collapse; font-size: 12px; }
.rr th { text-align: left; font-weight: 600; color: #475569; background: #f8fafc; }
.rr th, .rr td { padding: 4px 6px; border-bottom: 1px solid #e2e8f0; vertical-align: top; }
.rr td.rr-num, .rr th.rr-num { text-align: right; font-variant-numeric: tabular-nums; }
.rr .rr-mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 11px; }
.rr .rr-empty { color: #475569; font-style: italic; margin: 4px 0; }
.rr .rr-scroll { overflow-x: auto; }
.rr .sev-Critical { color: #b91c1c; font-weight: 600; } .rr .sev-Error { color: #c2410c; font-weight: 600; } .rr .sev-Warning { color: #a16207; }
.rr .rr-def { color: #475569; font-size: 12px; margin: 0 0 6px; }
@page { size: A4; margin: 14mm 12mm; }
@media print {
  html, body { background: #fff !important; }
  aside, header, nav, [data-sonner-toaster], .rr-noprint { display: none !important; }
  .h-screen, .min-h-0, #main-content { height: auto !important; overflow: visible !important; display: block !important; padding: 0 !important; }
  .rr { max-width: none; font-size: 11px; padding: 0; }
  .rr section { break-inside: auto; }
  .rr section.rr-break { break-before: page; }
  .rr tr, .rr .rr-card { break-inside: avoid; }
  .rr thead { display: table-header-group; }
  .rr .rr-scroll { overflow: visible; }
}
`

const when = (iso: string | null) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : 'Never')

/**
 * The report itself: the same markup on the page, in print and in the downloaded HTML file.
 * `deviationsControl`: the page's link to list more (or fewer) deviations per group.
 */
export function ReadinessDocument({ report, deviationsControl }: { report: ReadinessReport; deviationsControl?: ReactNode }) {
  const s = report.summary
  const deviating = report.baselines.filter((g) => g.deviations.length)
  const card = (label: string, value: number, bad: boolean) => (
    <div className={`rr-card${bad ? ' rr-bad' : ''}`}>
      <b>{formatCount(value)}</b>
      <span>{label}</span>
    </div>
  )
  return (
    <article className="rr" data-testid="readiness-report">
      <h1>Readiness report: {report.project.name}</h1>
      <p className="rr-meta">
        {report.organization.name} · generated {when(report.generatedAt)}
        {report.project.subProjects ? ` · includes ${report.project.subProjects} subproject(s)` : ''}
      </p>
      <span className={`rr-verdict ${s.ready ? 'rr-ready' : 'rr-notready'}`}>{s.ready ? 'Ready' : 'Not ready'}</span>
      <div className="rr-cards">
        {card('Agents', s.agents, false)}
        {card('Agents offline', s.agentsOffline, s.agentsOffline > 0)}
        {card('Critical / error issues', s.criticalOrErrorIssues, s.criticalOrErrorIssues > 0)}
        {card('Open issues', s.openIssues, false)}
        {card('Tiles over temperature', s.tilesOverTemperature, s.tilesOverTemperature > 0)}
        {card('Devices off baseline', s.baselineDeviations, s.baselineDeviations > 0)}
      </div>

      <section>
        <h2>Agents offline{report.offline.length < s.agentsOffline ? ` (first ${formatCount(report.offline.length)} of ${formatCount(s.agentsOffline)}; the downloads list more)` : ''}</h2>
        <p className="rr-def">Not seen within the offline alarm delay ({report.offlineAfterMinutes} minutes in this project; an agent in several projects uses the shortest), or disabled.</p>
        {report.offline.length ? (
          <div className="rr-scroll"><table>
            <thead>
              <tr><th>Agent</th><th>Last seen</th><th className="rr-num">Systems</th></tr>
            </thead>
            <tbody>
              {report.offline.map((a) => (
                <tr key={a.id}><td>{a.name}{a.disabled ? ' (disabled)' : ''}</td><td>{when(a.lastSeen)}</td><td className="rr-num">{formatCount(a.systems)}</td></tr>
              ))}
            </tbody>
          </table></div>
        ) : <p className="rr-empty">Every agent is connected.</p>}
      </section>

      <section>
        <h2>Tiles over temperature</h2>
        {report.tilesOverTemperature.length ? (
          <div className="rr-scroll"><table>
            <thead>
              <tr><th>Severity</th><th>Agent</th><th>System</th><th>Device</th><th>Message</th><th>Latest</th></tr>
            </thead>
            <tbody>
              {report.tilesOverTemperature.map((i) => (
                <tr key={i.id}><td className={`sev-${i.severityLabel}`}>{i.severityLabel}</td><td>{i.agentName}</td><td>{i.systemName}</td><td className="rr-mono">{i.deviceKey ?? ''}</td><td>{i.message}</td><td>{when(i.latestAt)}</td></tr>
              ))}
            </tbody>
          </table></div>
        ) : <p className="rr-empty">No tile reports a high temperature.</p>}
      </section>

      <section>
        <h2>Open issues by severity</h2>
        <table>
          <thead>
            <tr><th>Severity</th><th className="rr-num">Alerts</th><th className="rr-num">Deviations</th></tr>
          </thead>
          <tbody>
            {report.issuesBySeverity.map((row) => (
              <tr key={row.severity}><td className={`sev-${row.label}`}>{row.label}</td><td className="rr-num">{formatCount(row.alerts)}</td><td className="rr-num">{formatCount(row.deviations)}</td></tr>
            ))}
          </tbody>
        </table>
        {report.openIssues.length ? (
          <>
            <h3>Open issues{report.openIssuesTruncated ? ` (first ${formatCount(report.openIssues.length)})` : ''}</h3>
            <div className="rr-scroll">
              <table>
                <thead>
                  <tr><th>Severity</th><th>Kind</th><th>Key</th><th>Agent</th><th>System</th><th>Message</th><th>Latest</th></tr>
                </thead>
                <tbody>
                  {report.openIssues.map((i) => (
                    <tr key={i.id}><td className={`sev-${i.severityLabel}`}>{i.severityLabel}</td><td>{i.kind}</td><td className="rr-mono">{i.key}</td><td>{i.agentName}</td><td>{i.systemName}</td><td>{i.message}</td><td>{when(i.latestAt)}</td></tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        ) : null}
      </section>

      <section className="rr-break">
        <h2>Firmware and software baseline</h2>
        <p className="rr-def">
          The baseline of each component and product is the version (software and firmware together) most of the project&apos;s devices run; a tie goes to the newer version.
          Agents are compared by their own software version per product. Listed below: every system or agent that runs something else.
          {deviationsControl ? <> {deviationsControl}</> : null}
        </p>
        {report.baselines.length ? (
          <div className="rr-scroll">
            <table>
              <thead>
                <tr><th>Component</th><th>Product</th><th>Baseline software</th><th>Baseline firmware</th><th className="rr-num">On baseline</th><th className="rr-num">Devices</th></tr>
              </thead>
              <tbody>
                {report.baselines.map((g) => (
                  <tr key={`${g.component}/${g.product}`}><td>{g.component}</td><td>{g.product || '—'}</td><td className="rr-mono">{g.baseline.software || '—'}</td><td className="rr-mono">{g.baseline.firmware || '—'}</td><td className="rr-num">{formatCount(g.baseline.count)}</td><td className="rr-num">{formatCount(g.total)}</td></tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : <p className="rr-empty">No devices reported.</p>}
        {deviating.length ? (
          deviating.map((g) => (
            <div key={`${g.component}/${g.product}`}>
              <h3>{g.component} {g.product} — {formatCount(g.deviationsTotal)} deviating{g.deviations.length < g.deviationsTotal ? ` (first ${formatCount(g.deviations.length)}; the downloads list more)` : ''}</h3>
              <div className="rr-scroll">
                <table>
                  <thead>
                    <tr><th>Agent</th><th>System</th><th>Software</th><th>Firmware</th><th className="rr-num">Devices</th></tr>
                  </thead>
                  <tbody>
                    {g.deviations.map((d, i) => (
                      <tr key={i}><td>{d.agentName}</td><td>{d.systemName || '—'}</td><td className="rr-mono">{d.software || '—'}</td><td className="rr-mono">{d.firmware || '—'}</td><td className="rr-num">{formatCount(d.count)}</td></tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </div>
          ))
        ) : report.baselines.length ? <p className="rr-empty">Every device runs its baseline.</p> : null}
      </section>
    </article>
  )
}
