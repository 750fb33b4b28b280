/** The path segment standing for "no project" in a proxy address (organization-wide grants). */
export const NO_PROJECT = '-'

/**
 * The proxy address of a session (spec 01 section 7): {base}/session/{authCheck}/{product}/{agentId}/{projectId}{path}.
 * Shared by the portal page (browser) and the relay tests.
 */
export function proxyAddress(base: string, session: { authCheck: string; product: string; agentId: string; projectId: string | null }, path = '/') {
  return `${base.replace(/\/+$/, '')}/session/${session.authCheck}/${encodeURIComponent(session.product || 'agent')}/${session.agentId}/${session.projectId ?? NO_PROJECT}${path}`
}
