import { data, redirect } from '@remix-run/node'
import { DomainError } from '~/domain/errors'

/**
 * Runs a domain call from a loader or action. A DomainError becomes a thrown Response the route's
 * ErrorBoundary renders (403 = Access denied page, 404 = Not found); anything else propagates.
 */
export async function domainCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (error) {
    if (error instanceof DomainError) {
      if (error.code === 'mvr-auth/notloggedin') throw redirect('/login')
      throw data({ code: error.code, message: error.message }, { status: error.status })
    }
    throw error
  }
}

export type ActionFailure = { ok: false; code: string; message: string; issues: { path: string; message: string }[] }
export type ActionSuccess<T> = { ok: true; result: T; message?: string }

/**
 * For form actions: a DomainError becomes `{ ok: false, code, message, issues }` with its status so the
 * form shows it under the fields; success returns `{ ok: true, result }`.
 */
export async function formAction<T>(fn: () => Promise<T>, successMessage?: string) {
  try {
    const result = await fn()
    return data<ActionSuccess<T>>({ ok: true, result, message: successMessage })
  } catch (error) {
    if (error instanceof DomainError) {
      return data<ActionFailure>({ ok: false, code: error.code, message: error.message, issues: error.issues }, { status: error.status })
    }
    throw error
  }
}
