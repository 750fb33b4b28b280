import cliProgress from 'cli-progress'

/**
 * A progress bar on stderr, only when stderr is a terminal: stdout stays clean for JSON and CSV,
 * and logs of scripts get no escape codes.
 */
export function startProgress(total: number, label: string) {
  if (!process.stderr.isTTY) return { tick: () => {}, stop: () => {} }
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: `${label} [{bar}] {value}/{total} {percentage}%`, hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  )
  bar.start(total, 0)
  return { tick: () => bar.increment(), stop: () => bar.stop() }
}
