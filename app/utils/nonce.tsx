import { createContext, useContext } from 'react'

/**
 * The CSP nonce of the current document (server/security-headers.ts makes one per request). Only
 * the server render needs it: browsers hide nonce values from scripts, so the client renders ''.
 */
const NonceContext = createContext('')

export const NonceProvider = NonceContext.Provider
export const useNonce = () => useContext(NonceContext)
