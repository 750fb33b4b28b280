// Load-independent page figures for bench/lighthouse.ts `--trace`: one signed-in load of a page in
// headless Chromium on a phone-sized screen with DevTools' 4x CPU throttle and a performance trace.
// Lighthouse's scores scale the wall-clock length of every main-thread task, which a busy machine
// stretches; a trace event's thread time (`tdur`) counts only the CPU the renderer's main thread
// actually used, so it stays far more comparable between a quiet and a loaded machine (runs of one
// build at load 20 still differ by ~30 %). Chromium's throttle spends its extra CPU on the throttled
// thread itself, so thread times below are already the 4x-slowed ones.
import { chromium, type Browser } from 'playwright-core'

export type PageFigures = {
  /** main-thread CPU (thread time at 4x) from navigation until the page settled, all tasks (ms) */
  mainThreadMs: number
  /** the part of it inside script (evaluation, calls, timers, events, microtasks) */
  scriptMs: number
  /** tasks whose thread time exceeds 50 ms, and the sum of their part above 50 ms (like TBT, over the whole load) */
  longTasks: number
  blockingMs: number
  /** the longest task's thread time */
  longestTaskMs: number
  reactCommits: number
  domElements: number
  scripts: number
  jsBytes: number
  /** the page's largest-contentful-paint candidates in order (the last one is the LCP), ms since navigation */
  lcp: LcpCandidate[]
  /** when React committed first (hydration), ms since navigation; a candidate after it waited for the JS */
  firstCommitMs: number | null
  /** every task over 50 ms: start (ms since navigation) and thread time, to tell hydration from later reloads */
  taskTimeline: { startMs: number; cpuMs: number }[]
}

export type LcpCandidate = { ms: number; size: number; element: string }

const SCRIPT_EVENTS = new Set(['EvaluateScript', 'v8.evaluateModule', 'FunctionCall', 'TimerFire', 'FireAnimationFrame', 'EventDispatch', 'RunMicrotasks', 'v8.run', 'FireIdleCallback'])
const TASK_EVENTS = new Set(['RunTask', 'ThreadControllerImpl::RunTask'])

type TraceEvent = { name: string; ph: string; pid: number; tid: number; ts: number; dur?: number; tdur?: number; args?: { name?: string; beginData?: { url?: string }; data?: { documentLoaderURL?: string; isLoadingMainFrame?: boolean } } }

/**
 * Counts React commits through the DevTools hook React DOM looks for at start (production builds
 * call `onCommitFiberRoot` too); installed before any page script runs.
 */
const COMMIT_COUNTER = `window.__pfCommits = 0; window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
  renderers: new Map(), supportsFiber: true, isDisabled: false, checkDCE() {},
  inject(renderer) { const id = this.renderers.size + 1; this.renderers.set(id, renderer); return id },
  onScheduleFiberRoot() {}, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {},
  onCommitFiberRoot() { if (!window.__pfCommits) window.__pfFirstCommit = performance.now(); window.__pfCommits++ },
}
window.__pfLcp = []
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const el = e.element
    const text = el ? (el.textContent || '').trim().slice(0, 40) : ''
    const what = el ? el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\\s+/).slice(0, 3).join('.') : '') : '(removed)'
    window.__pfLcp.push({ ms: Math.round(e.startTime), size: e.size, element: what + (text ? ' "' + text + '"' : '') })
  }
}).observe({ type: 'largest-contentful-paint', buffered: true })`

export async function launchTraceBrowser() {
  return chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-dev-shm-usage'] })
}

/** Loads `url` once (cookie header when signed in) and waits until the network has been idle for 3 s. */
export async function tracePage(browser: Browser, url: string, cookie?: string): Promise<PageFigures> {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
    extraHTTPHeaders: cookie ? { Cookie: cookie } : undefined,
  })
  try {
    const page = await context.newPage()
    await page.addInitScript(COMMIT_COUNTER)
    let scripts = 0
    let jsBytes = 0
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return
      scripts++
      void response.body().then((body) => (jsBytes += body.length), () => {})
    })
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'v8.execute', 'v8', 'blink.user_timing'] })
    await page.goto(url, { waitUntil: 'load', timeout: 600_000 })
    // settled: hydrated (React's first commit; at load 20 the modules can take longer than the
    // quiet period below) and then no request for 3 s (the live stream stays open and does not count)
    let lastRequest = Date.now()
    page.on('request', () => (lastRequest = Date.now()))
    await page.waitForFunction(() => (window as unknown as { __pfCommits: number }).__pfCommits > 0, undefined, { timeout: 600_000, polling: 250 }).catch(() => {})
    lastRequest = Date.now()
    while (Date.now() - lastRequest < 3000) await page.waitForTimeout(250)
    const { reactCommits, firstCommitMs, lcp } = await page.evaluate(() => {
      const w = window as unknown as { __pfCommits: number; __pfFirstCommit?: number; __pfLcp: LcpCandidate[] }
      return { reactCommits: w.__pfCommits, firstCommitMs: w.__pfFirstCommit === undefined ? null : Math.round(w.__pfFirstCommit), lcp: w.__pfLcp }
    })
    const domElements = await page.evaluate(() => document.getElementsByTagName('*').length)
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] }
    return { ...summarize(trace.traceEvents, new URL(url).pathname), reactCommits, domElements, scripts, jsBytes, lcp, firstCommitMs }
  } finally {
    await context.close()
  }
}

/** The page's renderer main thread: the CrRendererMain that parsed the page's HTML. */
function summarize(events: TraceEvent[], pathname: string) {
  const mains = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`))
  const parse = events.find((e) => e.name === 'ParseHTML' && mains.has(`${e.pid}:${e.tid}`) && e.args?.beginData?.url?.includes(pathname))
  if (!parse) throw new Error(`no ParseHTML of ${pathname} in the trace`)
  // the page's time origin (performance.now() 0): its main frame's navigationStart before the parse
  const navigation = events.filter((e) => e.name === 'navigationStart' && e.pid === parse.pid && e.ts <= parse.ts && e.args?.data?.isLoadingMainFrame !== false).at(-1)
  const origin = navigation?.ts ?? parse.ts
  const thread = events.filter((e) => e.pid === parse.pid && e.tid === parse.tid && e.ph === 'X' && e.ts >= parse.ts - 1000)
  thread.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0))
  let mainThreadMs = 0
  let scriptMs = 0
  let longTasks = 0
  let blockingMs = 0
  let longestTaskMs = 0
  let taskEnd = -1
  let scriptEnd = -1
  const taskTimeline: { startMs: number; cpuMs: number }[] = []
  for (const e of thread) {
    const cpu = (e.tdur ?? 0) / 1000
    if (TASK_EVENTS.has(e.name) && e.ts >= taskEnd) {
      taskEnd = e.ts + (e.dur ?? 0)
      mainThreadMs += cpu
      longestTaskMs = Math.max(longestTaskMs, cpu)
      if (cpu > 50) {
        taskTimeline.push({ startMs: Math.round((e.ts - origin) / 1000), cpuMs: Math.round(cpu) })
        longTasks++
        blockingMs += cpu - 50
      }
    }
    // outermost script events only: a FunctionCall inside an EvaluateScript is not counted twice
    if (SCRIPT_EVENTS.has(e.name) && e.ts >= scriptEnd) {
      scriptEnd = e.ts + (e.dur ?? 0)
      scriptMs += cpu
    }
  }
  return { mainThreadMs, scriptMs, longTasks, blockingMs, longestTaskMs, taskTimeline }
}
