import proxyAddr from 'proxy-addr'
import { z } from 'zod'
import { DEFAULT_PROVISIONING_KEY } from '../protocol'
import { resolveDatabaseUrl } from './database-url'

const port = (name: string, fallback: number) =>
  z.coerce
    .number({ invalid_type_error: `${name} must be a port number` })
    .int(`${name} must be a whole number`)
    .min(0, `${name} must be between 0 and 65535`)
    .max(65535, `${name} must be between 0 and 65535`)
    .default(fallback)

const flag = z
  .enum(['true', 'false', '1', '0', 'on', 'off', 'yes', 'no', ''])
  .transform((v) => ['true', '1', 'on', 'yes'].includes(v))

/** Every environment variable the portal reads, with its default. Documented in README.md. */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().default('0.0.0.0'),
  PORT: port('PORT', 3000),
  MQTT_PORT: port('MQTT_PORT', 1883),
  RELAY_PORT: port('RELAY_PORT', 3001),
  DATABASE_URL: z.string().optional().transform((v) => resolveDatabaseUrl(v)),
  PUBLIC_URL: z.string().url('PUBLIC_URL must be an absolute URL such as https://portal.example.com').optional(),
  RELAY_PUBLIC_URL: z.string().url('RELAY_PUBLIC_URL must be an absolute URL').optional(),
  /** every proxy session gets its own origin {session}.{RELAY_DOMAIN} (docs/security.md); *.localhost is loopback in browsers */
  RELAY_DOMAIN: z
    .string()
    .toLowerCase()
    .regex(/^(?=.{1,200}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/, 'RELAY_DOMAIN must be a DNS name such as relay.example.com (no scheme, port or IP address)')
    .refine((v) => !/^[0-9.]+$/.test(v), 'RELAY_DOMAIN must be a DNS name, not an IP address')
    .default('localhost'),
  RELAY_SESSION_IDLE_MINUTES: z.coerce.number().int('RELAY_SESSION_IDLE_MINUTES must be a whole number').min(1, 'RELAY_SESSION_IDLE_MINUTES must be 1 or more').default(30),
  RELAY_SESSION_MAX_HOURS: z.coerce.number().min(0.01, 'RELAY_SESSION_MAX_HOURS must be more than 0').max(24 * 7, 'RELAY_SESSION_MAX_HOURS must be at most 168').default(8),
  /** a browser request the agent has not begun to answer after this long gets a 504 (as a reverse proxy's read timeout) */
  RELAY_ANSWER_TIMEOUT_SECONDS: z.coerce.number().int('RELAY_ANSWER_TIMEOUT_SECONDS must be a whole number').min(1, 'RELAY_ANSWER_TIMEOUT_SECONDS must be 1 or more').max(3600, 'RELAY_ANSWER_TIMEOUT_SECONDS must be at most 3600').default(100),
  /** how the relay moves large download bodies: on a thread of the native pump (built by npm install), or in JavaScript (docs/decisions/109-relay-bodies-pumped-off-the-event-loop.md) */
  RELAY_PUMP: z.enum(['native', 'javascript'], { message: 'RELAY_PUMP must be native or javascript' }).default('native'),
  /** several relay nodes on one database (docs/architecture.md): this node's name, the address other nodes reach it on, and the secret they share */
  RELAY_NODE_ID: z.string().regex(/^[A-Za-z0-9._:-]{1,100}$/, 'RELAY_NODE_ID may hold letters, digits and . _ : - (at most 100)').optional(),
  RELAY_INTERNAL_URL: z.string().url('RELAY_INTERNAL_URL must be an absolute URL such as http://10.0.0.5:3001').refine((v) => /^https?:\/\//.test(v), 'RELAY_INTERNAL_URL must be http:// or https://').optional(),
  RELAY_INTERNAL_SECRET: z.string().min(32, 'RELAY_INTERNAL_SECRET must be at least 32 characters').optional(),
  /** password of the MQTT provisioning identity new agents register with (docs/agent-protocol.md) */
  PROVISIONING_KEY: z.string().min(8, 'PROVISIONING_KEY must be at least 8 characters').default(DEFAULT_PROVISIONING_KEY),
  SMTP_URL: z.string().url('SMTP_URL must look like smtp://user:password@host:587').optional(),
  MAIL_FROM: z.string().default('Pixelfleet <no-reply@pixelfleet.local>'),
  /** fleet aggregates and tables shared between requests for this long, dropped by any change (docs/decisions/016); 0 = never shared */
  FLEET_READ_CACHE_MS: z.coerce.number().int('FLEET_READ_CACHE_MS must be a whole number').min(0, 'FLEET_READ_CACHE_MS must be 0 or more').max(60_000, 'FLEET_READ_CACHE_MS must be at most 60000').default(5_000),
  /** `off` compiles every database query anew instead of reusing one plan per query shape (decision 105) */
  PRISMA_PLAN_CACHE: z.enum(['on', 'off'], { message: 'PRISMA_PLAN_CACHE must be on or off' }).default('on'),
  /** batch window of alert e-mails per user: items within it are sent together as one digest */
  NOTIFY_BATCH_MS: z.coerce.number().int('NOTIFY_BATCH_MS must be a whole number').min(0, 'NOTIFY_BATCH_MS must be 0 or more').default(10_000),
  /** notification channels (docs/notification-channels.md): allow webhook URLs on private/loopback addresses (never in production unless set) */
  CHANNEL_ALLOW_PRIVATE: flag.default('false'),
  /** webhook attempts per message before it is given up (retried with backoff on 5xx, 429, timeouts and network errors) */
  CHANNEL_MAX_ATTEMPTS: z.coerce.number().int('CHANNEL_MAX_ATTEMPTS must be a whole number').min(1, 'CHANNEL_MAX_ATTEMPTS must be 1 or more').max(20, 'CHANNEL_MAX_ATTEMPTS must be at most 20').default(6),
  CHANNEL_TIMEOUT_MS: z.coerce.number().int('CHANNEL_TIMEOUT_MS must be a whole number').min(100, 'CHANNEL_TIMEOUT_MS must be 100 or more').default(10_000),
  /** parse every /client/v1 answer with the call's output schema and answer 500 on drift (on by default outside production; tests) */
  API_CHECK_OUTPUT: flag.optional(),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_ISSUER: z.string().url('GOOGLE_ISSUER must be an absolute URL').default('https://accounts.google.com'),
  /** any OpenID Connect provider (docs: README Configuration); takes precedence over GOOGLE_* */
  OIDC_ISSUER: z.string().url('OIDC_ISSUER must be an absolute URL such as https://login.example.com').optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_BUTTON_LABEL: z.string().max(60, 'OIDC_BUTTON_LABEL must be at most 60 characters').default('Sign in with single sign-on'),
  OIDC_SCOPES: z.string().regex(/(^|\s)openid(\s|$)/, 'OIDC_SCOPES must include openid').default('openid email profile'),
  /** e.g. login, consent, select_account; unset = none sent (the provider decides) */
  OIDC_PROMPT: z.string().regex(/^[a-z_ ]+$/, 'OIDC_PROMPT must be prompt values such as login or select_account').optional(),
  INSTANCE_NAME: z.string().default(''),
  VENDOR_EMAIL_DOMAIN: z.string().default('pixelfleet.io'),
  FEATURE_DASHBOARDS: flag.default('false'),
  /** optional XYZ tile server for the agent location map, e.g. https://tiles.example.com/{z}/{x}/{y}.png; the default offline map needs none */
  MAP_TILE_URL: z.string().regex(/\{z\}.*\{x\}.*\{y\}/, 'MAP_TILE_URL must contain {z}, {x} and {y}').optional(),
  /** the demo data; `npm start` (--demo) defaults it to true, production (`start:prod`) to false (server/safe-defaults.ts) */
  SEED_DEMO: flag.default('false'),
  /** first start: creates this site administrator when no account has the address */
  ADMIN_EMAIL: z.string().email('ADMIN_EMAIL must be an e-mail address').optional(),
  ADMIN_PASSWORD: z.string().optional(),
  ADMIN_NAME: z.string().default('Site Administrator'),
  SIMULATOR_AGENTS: z.coerce.number().int().min(0, 'SIMULATOR_AGENTS must be 0 or more').default(6),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** json: one JSON object per line; pretty: readable lines; auto (default): pretty in a terminal, else JSON (docs/operations.md) */
  LOG_FORMAT: z.enum(['json', 'pretty', 'auto'], { message: 'LOG_FORMAT must be json, pretty or auto' }).default('auto'),
  /** GET /metrics on the web port needs `Authorization: Bearer <METRICS_TOKEN>`; unset = not served there (docs/decisions/025) */
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  /** a separate listener for /metrics, /healthz and /readyz only (no token needed there unless METRICS_TOKEN is set); unset = none */
  METRICS_PORT: z.coerce.number({ invalid_type_error: 'METRICS_PORT must be a port number' }).int('METRICS_PORT must be a whole number').min(0, 'METRICS_PORT must be between 0 and 65535').max(65535, 'METRICS_PORT must be between 0 and 65535').optional(),
  /** address of the METRICS_PORT listener: keep it on a private interface */
  METRICS_HOST: z.string().default('127.0.0.1'),
  /** SIGTERM: seconds until the process exits at the latest (in-flight requests and ingest batches finish within it) */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int('SHUTDOWN_TIMEOUT_SECONDS must be a whole number').min(1, 'SHUTDOWN_TIMEOUT_SECONDS must be 1 or more').max(3600, 'SHUTDOWN_TIMEOUT_SECONDS must be at most 3600').default(30),
  /** SIGTERM: seconds /readyz answers 503 while new connections are still served, so a balancer polling it takes the node out first */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0, 'SHUTDOWN_GRACE_SECONDS must be 0 or more').max(600, 'SHUTDOWN_GRACE_SECONDS must be at most 600').default(5),
  /** external broker mode (docs/deployment.md): agents connect to this MQTT broker (RabbitMQ) and no embedded broker starts */
  MQTT_BROKER_URL: z.string().regex(/^mqtts?:\/\/[^:/@]+:[^@]+@[^:/]+(:\d+)?\/?$/, 'MQTT_BROKER_URL must look like mqtt://user:password@host:1883').optional(),
  /** AMQP address of the same broker for the ingest workers; default: MQTT_BROKER_URL's user, password and host on port 5672 */
  BROKER_AMQP_URL: z.string().regex(/^amqps?:\/\//, 'BROKER_AMQP_URL must look like amqp://user:password@host:5672').optional(),
  /** callers allowed to use the broker auth endpoints (/broker-auth/*): addresses or CIDR ranges */
  BROKER_AUTH_NETWORKS: z.string().default('loopback').transform((v, ctx) => {
    const list = v.split(',').map((s) => s.trim()).filter(Boolean)
    try {
      proxyAddr.compile(list)
    } catch {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'BROKER_AUTH_NETWORKS must be a comma-separated list of addresses or CIDR ranges (10.0.0.0/8, loopback)' })
    }
    return list
  }),
  /** optional shared secret RabbitMQ sends as the first path segment of /broker-auth/* (PORTAL_AUTH_URL=.../broker-auth/SECRET) */
  BROKER_AUTH_SECRET: z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, 'BROKER_AUTH_SECRET must be 16-128 letters, digits, _ or - (for example: openssl rand -hex 24)').optional(),
  /** messages an ingest worker takes from the broker before acknowledging (batching) */
  INGEST_PREFETCH: z.coerce.number().int('INGEST_PREFETCH must be a whole number').min(1, 'INGEST_PREFETCH must be 1 or more').max(5000, 'INGEST_PREFETCH must be at most 5000').default(200),
  /** ingest partition queues on the external broker; the same on every node (docs/decisions/011) */
  INGEST_PARTITIONS: z.coerce.number().int('INGEST_PARTITIONS must be a whole number').min(1, 'INGEST_PARTITIONS must be 1 or more').max(64, 'INGEST_PARTITIONS must be at most 64').default(8),
  /** bench only (`bench:ingest -- --trace`): a file the broker writes per-message ingest stage times to on exit (ingest/trace.ts) */
  INGEST_TRACE: z.string().min(1, 'INGEST_TRACE must name a file').optional(),
  /** this node's name in logs and cross-node events; default host name and process id */
  NODE_ID: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'NODE_ID must be 1-64 letters, digits, ., _ or -').optional(),
  /** load shedding (server/load-shedding.ts): web requests worked on at once (0 = no limit), waiting beyond that, and for how long */
  WEB_MAX_IN_FLIGHT: z.coerce.number().int('WEB_MAX_IN_FLIGHT must be a whole number').min(0, 'WEB_MAX_IN_FLIGHT must be 0 (no limit) or more').max(10_000, 'WEB_MAX_IN_FLIGHT must be at most 10000').default(16),
  WEB_MAX_QUEUED: z.coerce.number().int('WEB_MAX_QUEUED must be a whole number').min(0, 'WEB_MAX_QUEUED must be 0 or more').max(100_000, 'WEB_MAX_QUEUED must be at most 100000').default(32),
  WEB_QUEUE_WAIT_MS: z.coerce.number().int('WEB_QUEUE_WAIT_MS must be a whole number').min(10, 'WEB_QUEUE_WAIT_MS must be 10 or more').max(60_000, 'WEB_QUEUE_WAIT_MS must be at most 60000').default(1_000),
  /** reverse proxies whose X-Forwarded-For/Proto are believed: a hop count or a CIDR list (docs/decisions/007) */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, ctx) => {
      const parsed = parseTrustProxy(value)
      if (parsed === undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'TRUST_PROXY must be false, a hop count (1) or a comma-separated list of addresses/CIDR ranges (10.0.0.0/8, loopback)' })
      return parsed ?? false
    }),
})

/**
 * TRUST_PROXY: `false`/`0` (default: the socket address is the client), a hop count `1`..`10`, or
 * a comma-separated list of proxy addresses, CIDR ranges and proxy-addr's names (loopback,
 * linklocal, uniquelocal). `true` (trust any hop) is refused: anyone could then set their address.
 */
export function parseTrustProxy(raw: string): false | number | string[] | undefined {
  const value = raw.trim()
  if (['', 'false', '0', 'off', 'no'].includes(value.toLowerCase())) return false
  if (/^\d+$/.test(value)) {
    const hops = Number(value)
    return hops >= 1 && hops <= 10 ? hops : undefined
  }
  const list = value.split(',').map((v) => v.trim()).filter(Boolean)
  if (list.length === 0) return undefined
  try {
    proxyAddr.compile(list)
  } catch {
    return undefined
  }
  return list
}

export type Config = z.infer<typeof configSchema> & { publicUrl: string; relayPublicUrl: string }

/** Reads and validates the environment; throws one readable message naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''))
  const parsed = configSchema.safeParse(cleaned)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
  }
  const c = parsed.data
  if (c.OIDC_CLIENT_ID && !c.OIDC_ISSUER) throw new ConfigError('Invalid configuration:\n  OIDC_ISSUER: required when OIDC_CLIENT_ID is set')
  const publicUrl = (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, '')
  const relayPublicUrl = (c.RELAY_PUBLIC_URL ?? `http://localhost:${c.RELAY_PORT}`).replace(/\/+$/, '')
  return { ...c, publicUrl, relayPublicUrl }
}

export class ConfigError extends Error {}
