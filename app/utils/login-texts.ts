/** Texts the login page shares between its loader and its forms. */
export const LOGIN_TITLE = 'Sign in or create an account'

/** Confirmations the e-mail link pages and the profile page hand over as ?notice=... */
export const LOGIN_NOTICES = {
  verified: 'Your email address was verified.',
  passwordUpdated: 'Your password was updated.',
  emailChanged: 'Email change request sent',
} as const

export type LoginNotice = keyof typeof LOGIN_NOTICES

export const ACCOUNT_CREATED_TEXT =
  'If an account did not already exist, one was created and a verification email was sent. Use the link in the email to verify your address, then log in.'
