import { data } from '@remix-run/node'
import { type ActionFailure } from './errors.server'

/** Thrown from an action: a 400 with the same shape as a form's DomainError answer. */
export function badRequest(message: string): never {
  throw data<ActionFailure>({ ok: false, code: 'invalid-argument', message, issues: [] }, { status: 400 })
}

const NOT_A_FORM = 'The request body must be a form (application/x-www-form-urlencoded or multipart/form-data)'

/**
 * Every route action reads its form through this: a JSON, broken multipart or unreadable body is a
 * clear 400, never a 500. (Oversized bodies are refused with 413 by the server before this.)
 */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData()
  } catch {
    return badRequest(NOT_A_FORM)
  }
}

/** The form's text fields as an object (file parts are dropped: no action takes uploads). */
export async function readForm(request: Request): Promise<Record<string, string>> {
  const form = await readFormData(request)
  const fields: Record<string, string> = {}
  for (const [key, value] of form) if (typeof value === 'string') fields[key] = value
  return fields
}
