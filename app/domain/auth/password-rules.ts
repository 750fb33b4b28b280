/** Password rules for create and reset (spec 01 section 5); shared by the forms and the server. */
export const PASSWORD_MIN_LENGTH = 10

export type PasswordRule = { id: string; description: string; test: (password: string, confirmation: string) => boolean }

export const PASSWORD_RULES: PasswordRule[] = [
  { id: 'length', description: `Must be at least ${PASSWORD_MIN_LENGTH} character(s)`, test: (p) => p.length >= PASSWORD_MIN_LENGTH },
  { id: 'upper', description: 'Must contain at least one uppercase character', test: (p) => /[A-Z]/.test(p) },
  { id: 'lower', description: 'Must contain at least one lowercase character', test: (p) => /[a-z]/.test(p) },
  {
    id: 'digitOrPunctuation',
    description: 'Must contain at least one number or punctuation character',
    // space, digits and the ASCII symbol ranges
    test: (p) => /[ -/0-9:-@[-`{-~]/.test(p),
  },
  { id: 'match', description: 'New password and confirmation must match', test: (p, c) => p === c },
]

/** Rules the pair fails, in display order (empty = valid). */
export function failedPasswordRules(password: string, confirmation: string): PasswordRule[] {
  return PASSWORD_RULES.filter((r) => !r.test(password, confirmation))
}

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
export const isValidEmail = (email: string) => EMAIL_PATTERN.test(email.trim())
