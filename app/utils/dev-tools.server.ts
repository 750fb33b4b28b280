import { getConfig } from './env.server'

/** Developer pages (/dev/...) exist outside production, or when PIXELFLEET_DEV_PAGES=true. */
export const devToolsEnabled = () => getConfig().NODE_ENV !== 'production' || process.env.PIXELFLEET_DEV_PAGES === 'true'
