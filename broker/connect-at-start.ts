import { ConfigError } from '../server/config'

type Logger = { warn: (message: string) => void }

/**
 * The first connection: a node started before its broker waits for it, with one line per
 * attempt group rather than an exit on ECONNREFUSED. A refusal of the configuration (ConfigError)
 * ends the start at once.
 */
export async function connectAtStart(connect: () => Promise<void>, amqpUrl: string, retryMs: number, log: Logger) {
  const url = new URL(amqpUrl)
  const where = `${url.protocol}//${url.hostname}:${url.port || 5672}`
  const started = Date.now()
  for (let attempt = 1; ; attempt++) {
    try {
      await connect()
      if (attempt > 1) log.warn(`broker: connected to ${where} after ${((Date.now() - started) / 1000).toFixed(0)} s`)
      return
    } catch (error) {
      if (error instanceof ConfigError) throw error
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message
      // one line now, then one every ~30 s
      if (attempt === 1 || attempt % 15 === 0) log.warn(`broker: waiting for RabbitMQ at ${where} (${reason}); trying again every ${retryMs / 1000} s`)
      await new Promise((resolve) => setTimeout(resolve, retryMs))
    }
  }
}
