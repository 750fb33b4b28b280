import { z } from 'zod'
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
  SMTP_URL: z.string().url('SMTP_URL must look like smtp://user:password@host:587').optional(),
  MAIL_FROM: z.string().default('Pixelfleet <no-reply@pixelfleet.local>'),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_ISSUER: z.string().url('GOOGLE_ISSUER must be an absolute URL').default('https://accounts.google.com'),
  INSTANCE_NAME: z.string().default(''),
  VENDOR_EMAIL_DOMAIN: z.string().default('pixelfleet.io'),
  FEATURE_DASHBOARDS: flag.default('false'),
  SEED_DEMO: flag.default('true'),
  SIMULATOR_AGENTS: z.coerce.number().int().min(0, 'SIMULATOR_AGENTS must be 0 or more').default(6),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
})

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
  const publicUrl = (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, '')
  const relayPublicUrl = (c.RELAY_PUBLIC_URL ?? `http://localhost:${c.RELAY_PORT}`).replace(/\/+$/, '')
  return { ...c, publicUrl, relayPublicUrl }
}

export class ConfigError extends Error {}
