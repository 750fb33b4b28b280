import http from 'node:http'
import { type AddressInfo } from 'node:net'
import { WebSocketServer } from 'ws'
import { type SimulatedSite } from './site'

export type AgentWebUi = {
  port: number
  /** the UI's HTTP server: the tunnel hands it data connections (simulator/tunnel-data.ts) */
  server: http.Server
  close: () => Promise<void>
}

const SEVERITY_LABEL: Record<number, string> = { 2: 'Critical', 3: 'Error', 4: 'Warning', 5: 'Notice', 6: 'Info', [-1]: 'Invalid' }

const DEFAULT_BUNDLE_MB = 50
const LIVE_INTERVAL_MS = 1000
const BUNDLE_CHUNK = Buffer.alloc(1024 * 1024, 0x5a)

/** A large download of `mb` MiB, written with backpressure (a real agent's log or firmware bundle). */
function sendBundle(res: http.ServerResponse, mb: number) {
  const chunks = Math.min(Math.max(1, Math.round(mb)), 1024)
  res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(chunks * BUNDLE_CHUNK.length), 'Content-Disposition': 'attachment; filename="support-bundle.bin"' })
  let sent = 0
  const more = () => {
    while (sent < chunks) {
      sent++
      if (!res.write(BUNDLE_CHUNK)) return void res.once('drain', more)
    }
    res.end()
  }
  more()
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * The simulated agent's own web interface on 127.0.0.1 (the page a real agent serves on site and
 * the relay shows in the remote portal): its status page with systems, devices and alerts, and
 * the same as JSON at `status.json`, a diagnostics bundle to download (`support-bundle.bin?mb=N`,
 * default 50 MB) and a WebSocket at `live` that pushes the status every second (the page shows it
 * live). Links are relative so the page works below the relay's path.
 */
export async function startAgentWebUi(site: SimulatedSite, agentId: () => string | undefined): Promise<AgentWebUi> {
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://agent').pathname
    if (path === '/' || path === '/index.html') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' })
      res.end(statusPage(site, agentId()))
    } else if (path === '/status.json') {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' })
      res.end(JSON.stringify({ name: site.name, serial: site.serial, product: site.product, version: site.version, systems: site.systemsSnapshot() }))
    } else if (path === '/support-bundle.bin') {
      sendBundle(res, Number(new URL(req.url ?? '/', 'http://agent').searchParams.get('mb')) || DEFAULT_BUNDLE_MB)
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' })
      res.end('Not found on this agent')
    }
  })
  const live = new WebSocketServer({ server, path: '/live', perMessageDeflate: false })
  const snapshot = () => JSON.stringify({ at: new Date().toISOString(), name: site.name, systems: site.systemsSnapshot().map((s) => ({ key: s.key, name: s.name, devices: s.devices.length })) })
  live.on('connection', (ws) => {
    ws.send(snapshot())
    // Echo lets a client measure the round trip through the relay.
    ws.on('message', (data) => ws.send(`echo:${String(data)}`))
  })
  const ticker = setInterval(() => {
    if (!live.clients.size) return
    const text = snapshot()
    for (const ws of live.clients) ws.send(text)
  }, LIVE_INTERVAL_MS)
  ticker.unref()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    server,
    close: () => {
      clearInterval(ticker)
      for (const ws of live.clients) ws.terminate()
      live.close()
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

function statusPage(site: SimulatedSite, agentId: string | undefined): string {
  const systems = site.systemsSnapshot()
  const sections = systems
    .map((system) => {
      const issues = [...system.alerts, ...system.deviations].filter((i) => (i.history.at(-1)?.count ?? 0) > 0)
      const deviceRows = system.devices
        .map((d) => `<tr><td>${escapeHtml(d.component)}</td><td>${escapeHtml(d.name)}</td><td>${escapeHtml(d.product)}</td><td>${escapeHtml(d.serial)}</td><td>${escapeHtml(d.version.software ?? d.version.firmware ?? '')}</td></tr>`)
        .join('')
      const issueRows = issues.length
        ? issues.map((i) => `<li class="sev-${i.severity}"><b>${SEVERITY_LABEL[i.severity] ?? i.severity}</b> ${escapeHtml(i.component)}: ${escapeHtml(i.message)}</li>`).join('')
        : '<li class="ok">No active alerts</li>'
      return `<section><h2>${escapeHtml(system.name)} <small>${escapeHtml(system.key)}</small></h2>
<h3>Alerts</h3><ul>${issueRows}</ul>
<h3>Devices (${system.devices.length})</h3>
<table><thead><tr><th>Component</th><th>Name</th><th>Product</th><th>Serial</th><th>Version</th></tr></thead><tbody>${deviceRows}</tbody></table></section>`
    })
    .join('')
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(site.name)} - agent status</title>
<style>
body{font:13px/1.45 system-ui,sans-serif;margin:0;color:#1f2937;background:#f8fafc}
header{background:#0f172a;color:#f8fafc;padding:12px 20px}header h1{font-size:16px;margin:0}header p{margin:2px 0 0;color:#94a3b8}
main{padding:16px 20px;display:grid;gap:16px}section{background:#fff;border:1px solid #e2e8f0;border-radius:6px;padding:12px 16px}
h2{font-size:14px;margin:0 0 8px}h2 small{color:#64748b;font-weight:400}h3{font-size:12px;text-transform:uppercase;color:#64748b;margin:10px 0 4px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:3px 8px;border-bottom:1px solid #f1f5f9}th{color:#64748b;font-weight:500}
ul{margin:0;padding-left:18px}.sev-2,.sev-3{color:#b91c1c}.sev-4{color:#b45309}.ok{color:#15803d}
</style></head><body>
<header><h1>${escapeHtml(site.name)} — agent status</h1><p id="live">Live status connecting…</p><p>${escapeHtml(site.product)} ${escapeHtml(site.version)} · serial ${escapeHtml(site.serial)}${agentId ? ` · agent ${escapeHtml(agentId)}` : ''} · ${systems.length} system(s)</p></header>
<main>${sections}</main>
<script>
(function(){var el=document.getElementById('live');var ws=new WebSocket((location.protocol==='https:'?'wss:':'ws:')+'//'+location.host+'/live');
ws.onmessage=function(e){if(e.data.slice(0,5)==='echo:')return;var s=JSON.parse(e.data);el.textContent='Live status '+new Date(s.at).toLocaleTimeString()+' · '+s.systems.length+' system(s)';el.dataset.updates=String(Number(el.dataset.updates||0)+1)};
ws.onclose=function(){el.textContent='Live status disconnected'}})();
</script></body></html>`
}
