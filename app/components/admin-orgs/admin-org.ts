/** One organization as the site-admin organization pages show it (its detail tabs share it). */
export type AdminOrg = {
  id: string
  name: string
  description: string
  ownerId: string
  ownerName: string
  billingStatus: string
  billingPeriod: string
  agentCount: number
  projectCount: number
  projects: { id: string; name: string; parentId: string | null }[]
}
