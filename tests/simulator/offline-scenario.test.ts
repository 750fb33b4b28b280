/** The agentOffline scenario: the site goes silent for 10 ticks of every 30, then reports again. */
import { describe, expect, it } from 'vitest'
import { SimulatedSite } from '../../simulator/site'

describe('agentOffline scenario', () => {
  it('is silent from tick 6 to 15 and again from 36, other scenarios never', () => {
    const site = new SimulatedSite({ seed: 7, index: 0, scenario: 'agentOffline' })
    const healthy = new SimulatedSite({ seed: 7, index: 0, scenario: 'healthy' })
    const silent: number[] = []
    const start = Date.UTC(2030, 0, 1)
    for (let tick = 0; tick < 40; tick++) {
      site.tick(new Date(start + tick * 60_000))
      healthy.tick(new Date(start + tick * 60_000))
      if (site.silent) silent.push(tick)
      expect(healthy.silent).toBe(false)
    }
    expect(silent).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 36, 37, 38, 39])
  })
})
