import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { LowPriorityPreloads } from '~/utils/low-priority-preloads.server'

async function run(chunks: (string | Buffer)[]) {
  const out: string[] = []
  const stream = Readable.from(chunks).pipe(new LowPriorityPreloads())
  for await (const chunk of stream) out.push(String(chunk))
  return out.join('')
}

describe('LowPriorityPreloads', () => {
  const page = '<html><body><p>Agents ✓</p><link rel="modulepreload" href="/assets/a.js"/><link rel="modulepreload" href="/assets/b.js"/><link rel="stylesheet" href="/x.css"/></body></html>'
  const expected = page.replaceAll('<link rel="modulepreload"', '<link rel="modulepreload" fetchpriority="low"')

  it('marks every module preload low priority and leaves the rest alone', async () => {
    expect(await run([page])).toBe(expected)
  })

  it('finds tags and characters split across chunks', async () => {
    const bytes = Buffer.from(page)
    // every split point, including inside the tag and inside the multi-byte check mark
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await run([bytes.subarray(0, cut), bytes.subarray(cut)])).toBe(expected)
    }
    expect(await run([...bytes].map((b) => Buffer.from([b])))).toBe(expected)
  })
})
