import { createHash, randomBytes } from 'node:crypto'
import { hash, verify } from '@node-rs/argon2'

/** argon2id with the OWASP-recommended minimum cost (19 MiB, 2 passes). */
const ARGON2 = { memoryCost: 19456, timeCost: 2, parallelism: 1 }

export const hashPassword = (password: string) => hash(password, ARGON2)

/** A hash of a random password nobody knows: verified against when an account has no hash. */
let dummyHash: Promise<string> | null = null
const dummy = () => (dummyHash ??= hash(randomBytes(24).toString('base64url'), ARGON2))

/**
 * Checks a password. Without a stored hash (unknown account, Google-only account) it still runs
 * one argon2 verification against a dummy hash and answers false, so a wrong password takes the
 * same time whether or not the account exists.
 */
export async function verifyPassword(hashValue: string | null | undefined, password: string): Promise<boolean> {
  try {
    const ok = await verify(hashValue || (await dummy()), password)
    return Boolean(hashValue) && ok
  } catch {
    return false
  }
}

/** A random token for cookies, codes and API tokens (URL-safe). */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url')

/** Tokens are stored only as their SHA-256, so a database leak reveals no live credential. */
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')
