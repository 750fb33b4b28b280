import { createHash, randomBytes } from 'node:crypto'
import { hash, verify } from '@node-rs/argon2'

/** argon2id with the OWASP-recommended minimum cost (19 MiB, 2 passes). */
const ARGON2 = { memoryCost: 19456, timeCost: 2, parallelism: 1 }

export const hashPassword = (password: string) => hash(password, ARGON2)
export async function verifyPassword(hashValue: string | null | undefined, password: string): Promise<boolean> {
  if (!hashValue) return false
  try {
    return await verify(hashValue, password)
  } catch {
    return false
  }
}

/** A random token for cookies, codes and API tokens (URL-safe). */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url')

/** Tokens are stored only as their SHA-256, so a database leak reveals no live credential. */
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')
