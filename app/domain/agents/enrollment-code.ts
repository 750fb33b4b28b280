/**
 * Enrollment (application) codes: 8 upper-case letters and digits, stored normalised and shown as
 * XXX-XX-XXX. Pure helpers shared by the broker (code generation), the domain, the web form and the CLI.
 */
export const ENROLLMENT_CODE_LENGTH = 8
/** An enrollment code is current for 14 days after its creation (spec 01/02 section 9). */
export const ENROLLMENT_CODE_VALIDITY_MS = 14 * 24 * 60 * 60 * 1000
/** Letters and digits without the look-alikes 0/O and 1/I/L, so a code read aloud survives. */
export const ENROLLMENT_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'

export const ENROLLMENT_CODE_REQUIRED = 'Please input enrollment code'
export const ENROLLMENT_CODE_INVALID = 'Invalid enrollment code'
export const ENROLLMENT_CODE_PLACEHOLDER = 'XXX-XX-XXX'
/** Title the enrollment page shows over a failed lookup (spec 02 section 2). */
export const ENROLLMENT_ERROR_TITLE = 'Enrollment error (invalid code?)'

/** Dashes and whitespace removed, upper-cased (spec 02 section 5). */
export function normalizeEnrollmentCode(input: string): string {
  return input.replace(/[\s-]+/g, '').toUpperCase()
}

/** The display form XXX-XX-XXX (longer or shorter input is grouped the same way, never truncated). */
export function formatEnrollmentCode(code: string): string {
  const c = normalizeEnrollmentCode(code)
  if (c.length <= 3) return c
  if (c.length <= 5) return `${c.slice(0, 3)}-${c.slice(3)}`
  return `${c.slice(0, 3)}-${c.slice(3, 5)}-${c.slice(5)}`
}

/** The message to show for typed input, or null when it may be looked up. */
export function enrollmentCodeProblem(input: string): string | null {
  if (input.trim() === '') return ENROLLMENT_CODE_REQUIRED
  if (!/[A-Za-z0-9]/.test(input)) return ENROLLMENT_CODE_INVALID
  return null
}

/**
 * A new random code in normalised form (the caller retries on the rare unique clash). Web Crypto,
 * so this module also loads in the browser; bytes that would bias the alphabet are redrawn.
 */
export function generateEnrollmentCode(): string {
  const size = ENROLLMENT_CODE_ALPHABET.length
  const unbiasedLimit = 256 - (256 % size)
  let code = ''
  while (code.length < ENROLLMENT_CODE_LENGTH) {
    for (const byte of globalThis.crypto.getRandomValues(new Uint8Array(16))) {
      if (byte < unbiasedLimit && code.length < ENROLLMENT_CODE_LENGTH) code += ENROLLMENT_CODE_ALPHABET[byte % size]
    }
  }
  return code
}
