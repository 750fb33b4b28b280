import cliProgress from 'cli-progress'

export type FleetCounts = { total: number; online: number; failed: number }

export type ProgressMode = 'auto' | 'bar' | 'lines' | 'off'

export type Progress = { update: (counts: FleetCounts) => void; stop: () => void }

/**
 * Shows how a fleet connects: a bar on a terminal, otherwise (logs, CI, the server's own output)
 * a plain line every few seconds and one at the end.
 */
export function createProgress(total: number, mode: ProgressMode, log: (line: string) => void, stream: NodeJS.WriteStream = process.stderr): Progress {
  const useBar = mode === 'bar' || (mode === 'auto' && stream.isTTY === true)
  if (mode === 'off') return { update: () => {}, stop: () => {} }
  if (useBar) {
    const bar = new cliProgress.SingleBar(
      {
        format: 'Connecting agents |{bar}| {value}/{total} online, {failed} failed | {duration_formatted}',
        hideCursor: true,
        stream,
        clearOnComplete: false,
      },
      cliProgress.Presets.shades_classic,
    )
    bar.start(total, 0, { failed: 0 })
    return {
      update: ({ online, failed }) => bar.update(online, { failed }),
      stop: () => bar.stop(),
    }
  }
  let last: FleetCounts = { total, online: 0, failed: 0 }
  let printed = ''
  const print = () => {
    const line = `Connecting agents: ${last.online}/${total} online, ${last.failed} failed`
    if (line !== printed) log(line)
    printed = line
  }
  const timer = setInterval(print, 3000)
  timer.unref()
  return {
    update: (counts) => {
      last = counts
    },
    stop: () => {
      clearInterval(timer)
      print()
    },
  }
}
