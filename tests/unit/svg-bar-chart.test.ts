import { describe, expect, it } from 'vitest'
import { valueTicks, wrapLabel } from '~/components/fleet/svg-bar-chart'

describe('svg bar chart axes', () => {
  it('counts in at least four integer steps of 1, 2 or 5 x 10^n up to the maximum', () => {
    expect(valueTicks(0)).toEqual([0, 1, 2, 3, 4])
    expect(valueTicks(3)).toEqual([0, 1, 2, 3, 4])
    expect(valueTicks(5)).toEqual([0, 2, 4, 6, 8])
    expect(valueTicks(173)).toEqual([0, 50, 100, 150, 200])
    expect(valueTicks(1000)).toEqual([0, 500, 1000, 1500, 2000])
  })

  it('wraps a long label into two lines and marks the cut', () => {
    expect(wrapLabel('Tile', 100)).toEqual(['Tile'])
    const lines = wrapLabel('IMAG Left processor: input 4096x2160p50 does not match the wall', 140)
    expect(lines).toHaveLength(2)
    expect(lines[0]).toBe('IMAG Left processor:')
    expect(lines[1]!.endsWith('…')).toBe(true)
  })
})
