import { describe, expect, it } from 'vitest'
import { markPreloadsLow } from '~/utils/low-priority-preloads.server'

describe('markPreloadsLow', () => {
  const page = '<html><body><p>Agents ✓</p><link rel="modulepreload" href="/assets/a.js"/><link rel="modulepreload" href="/assets/b.js"/><link rel="stylesheet" href="/x.css"/></body></html>'
  const expected = page.replaceAll('<link rel="modulepreload"', '<link rel="modulepreload" fetchpriority="low"')

  it('marks every module preload low priority and leaves the rest alone', () => {
    expect(markPreloadsLow(Buffer.from(page)).toString()).toBe(expected)
  })

  it('returns a page without module preloads as it is', () => {
    const plain = Buffer.from('<html><body><p>Sign in ✓</p></body></html>')
    expect(markPreloadsLow(plain)).toBe(plain)
  })
})
