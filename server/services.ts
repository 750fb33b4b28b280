import { type Config } from './config'
import { startWebServer, type WebServer } from './app'
import { setConfig } from '../app/utils/env.server'
import { disconnectDatabase, tuneDatabase } from '../app/utils/db.server'
import { seedDemo } from '../prisma/seed-data'
import { startNotificationDelivery } from '../app/domain/notifications/delivery.server'
import { startMailSender } from '../app/domain/mail/mail-sender.server'
import { startOfflineSweeper } from '../app/domain/alarms/offline.server'
import { startChannelSender } from '../app/domain/notifications/channels/sender.server'
import { brokerLogger, startBroker } from '../broker/broker.server'
import { amqpUrlOf, defaultNodeId, startExternalBroker } from '../broker/external.server'
import { startRelay } from '../relay/relay.server'
import { startDemoFleet } from '../simulator/demo.server'
import { ingestProblem } from '../ingest/agent-gateway.server'
import { componentLogger, configureLogging } from '../app/utils/logger.server'
import { collectServiceMetrics, startMetricsServer } from './metrics'

export type Services = {
  web: WebServer
  mqttPort: number
  relayPort: number
  /** the METRICS_PORT listener, when configured */
  metricsPort: number | null
  /** SIGTERM (drain.ts): readiness false, then no new connections, then in-flight requests finish; true when all did before `deadline` */
  drain: (options: { graceMs: number; deadline: number }) => Promise<boolean>
  close: () => Promise<void>
}

/**
 * Composes the process: one domain layer, with the web server, the MQTT broker and the relay
 * around it. Tests call this with port 0 and their own database.
 */
const log = componentLogger('server')
const relayLog = componentLogger('relay')

export async function startServices(config: Config, options: { dev: boolean; root: string; seed?: boolean }): Promise<Services> {
  setConfig(config)
  configureLogging({ level: config.LOG_LEVEL, format: config.LOG_FORMAT, nodeId: config.NODE_ID ?? defaultNodeId() })
  await tuneDatabase()
  if (options.seed ?? config.SEED_DEMO) await seedDemo()
  const web = await startWebServer(config, options)
  // With PORT=0 (tests) links in e-mails must name the port actually bound.
  if (!config.PUBLIC_URL) {
    config.publicUrl = `http://localhost:${web.port}`
    setConfig(config)
  }
  // MQTT_BROKER_URL: agents use the external (RabbitMQ) broker; this node runs ingest workers instead of aedes.
  const brokerStart = config.MQTT_BROKER_URL
    ? startExternalBroker({
        mqttUrl: config.MQTT_BROKER_URL,
        amqpUrl: amqpUrlOf(config.MQTT_BROKER_URL, config.BROKER_AMQP_URL),
        nodeId: config.NODE_ID ?? defaultNodeId(),
        prefetch: config.INGEST_PREFETCH,
        partitions: config.INGEST_PARTITIONS,
        logger: brokerLogger(config.LOG_LEVEL),
      })
    : startBroker({ port: config.MQTT_PORT, host: config.HOST, httpServer: web.server, logger: brokerLogger(config.LOG_LEVEL) })
  const broker = await brokerStart.catch(async (error) => {
    await web.close()
    throw error
  })
  const relay = await startRelay({ port: config.RELAY_PORT, host: config.HOST, log: (line) => relayLog.warn(line) }).catch(async (error) => {
    await broker.close()
    await web.close()
    throw error
  })
  // /readyz: the broker side takes messages (embedded: the ingest worker runs; external: AMQP is connected)
  if ('connected' in broker) web.ops.readiness.register('broker', () => (broker.connected() ? null : 'the AMQP connection to the broker is down; reconnecting'))
  web.ops.readiness.register('ingest', ingestProblem)
  collectServiceMetrics({
    connectedAgents: 'connectedAgents' in broker ? broker.connectedAgents : undefined,
    partitions: 'queueDepths' in broker ? { count: config.INGEST_PARTITIONS, owned: broker.ownedPartitions, liveNodes: broker.liveNodes, queueDepths: broker.queueDepths } : undefined,
    relay: { server: relay.server, tunnelCount: relay.tunnelCount },
  })
  const metricsServer =
    config.METRICS_PORT !== undefined
      ? await startMetricsServer(config, web.ops.health).catch(async (error) => {
          await relay.close()
          await broker.close()
          await web.close()
          throw error
        })
      : null
  // With RELAY_PORT=0 (tests) agents and browsers must be told the port actually bound.
  if (!config.RELAY_PUBLIC_URL) {
    config.relayPublicUrl = `http://localhost:${relay.port}`
    setConfig(config)
  }
  const notifications = startNotificationDelivery()
  const mailSender = startMailSender()
  const offlineSweeper = startOfflineSweeper()
  const channelSender = startChannelSender()
  // The demo organization gets live simulated agents (SIMULATOR_AGENTS=0 turns this off).
  const demoFleet =
    config.SIMULATOR_AGENTS > 0 && (options.seed ?? config.SEED_DEMO)
      ? startDemoFleet({
          agents: config.SIMULATOR_AGENTS,
          mqttPort: broker.port,
          provisioningKey: config.PROVISIONING_KEY,
          databaseUrl: config.DATABASE_URL,
          log: (line) => componentLogger('simulator').warn(line),
        })
      : null
  return {
    web,
    mqttPort: broker.port,
    relayPort: relay.port,
    metricsPort: metricsServer?.port ?? null,
    drain: (options) => web.ops.tracker.drain({ ...options, log: (message) => log.info(message) }),
    close: async () => {
      // Agents first, so every acknowledged message is committed before the database closes.
      await demoFleet?.stop()
      await relay.close()
      await broker.close()
      await web.close()
      await notifications.stop()
      await mailSender.stop()
      await offlineSweeper.stop()
      await channelSender.stop()
      await metricsServer?.close()
      await disconnectDatabase()
    },
  }
}
