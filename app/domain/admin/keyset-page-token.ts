import { invalid } from '../errors'

/** Where the next page of an admin list starts: the sort key and id of the last row shown. */
export type KeysetPosition = { k: string; id: string }

/** Opaque to callers (base64url JSON), so the sort key can change without breaking clients. */
export const encodePageToken = (position: KeysetPosition) => Buffer.from(JSON.stringify(position)).toString('base64url')

export function decodePageToken(token: string): KeysetPosition {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Partial<KeysetPosition>
    if (typeof value.k === 'string' && typeof value.id === 'string') return { k: value.k, id: value.id }
  } catch {
    // falls through to the error below
  }
  throw invalid('Invalid pageToken', [{ path: 'pageToken', message: 'Invalid pageToken' }])
}
