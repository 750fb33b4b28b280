import { z } from 'zod'
import { ALL_PERMISSIONS, type Permission } from '~/domain/access/catalogue'

/** A time as the API sends it: Dates leave the server as ISO 8601 strings (JSON.stringify). */
export const isoTime = z.string().datetime({ offset: true })

/** One permission name of the access catalogue (app/domain/access/catalogue.ts). */
export const permission = z.enum(ALL_PERMISSIONS as [Permission, ...Permission[]])
