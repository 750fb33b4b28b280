import { expect, test } from 'vitest'
import { valueHash } from '../../app/domain/agents/value-hash'

const devices = () => [
  { id: 'proc', component: 'processor', product: 'MX40', serial: 'P1', name: 'Processor', properties: { genlockFrequency: 50, inputSource: 'HDMI 1' } },
  { id: 'rx-0', component: 'receiver', product: 'Tile', name: 'Tile row 0', parent: 'proc', count: 3 },
]

test('equal values hash alike, whether or not they are the same objects', () => {
  expect(valueHash(devices())).toBe(valueHash(devices()))
  expect(valueHash(devices())).toMatch(/^[0-9a-z]+$/)
})

test('any change of a device list changes its hash', () => {
  const base = valueHash(devices())
  const changed = [
    (d: ReturnType<typeof devices>) => (d[1].count = 4),
    (d: ReturnType<typeof devices>) => ((d[0].properties as { inputSource: string }).inputSource = 'HDMI 2'),
    (d: ReturnType<typeof devices>) => (d[0].name = 'Processor '),
    (d: ReturnType<typeof devices>) => d.reverse(),
    (d: ReturnType<typeof devices>) => d.pop(),
    (d: ReturnType<typeof devices>) => Object.assign(d[1], { versionSoftware: '1.0' }),
  ]
  for (const change of changed) {
    const list = devices()
    change(list)
    expect(valueHash(list)).not.toBe(base)
  }
})

test('different structures with the same characters do not collide', () => {
  const values: unknown[] = [['ab', 'c'], ['a', 'bc'], [1], ['1'], [null], [undefined], [], {}, [[]], [{}], { a: 1, b: 2 }, { b: 2, a: 1 }, [true], [false], [0], [-0], ['']]
  const hashes = values.map(valueHash)
  expect(new Set(hashes).size).toBe(values.length)
})

test('strings of odd and even length and keys past the key table hash consistently', () => {
  const values: unknown[] = ['', 'a', 'ab', 'abc', 'abcd', 'b', 'ba', '\u0000', '\u0000\u0000', { a: '' }, { aa: '' }, { '': 'a' }]
  expect(new Set(values.map(valueHash)).size).toBe(values.length)
  // more distinct keys than the table holds: the ones past it are hashed each time, to the same codes
  const many = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`key${i}`, i]))
  const first = valueHash(many)
  expect(valueHash({ ...many })).toBe(first)
  expect(valueHash({ ...many, key4999: 4998 })).not.toBe(first)
  const renamed = { ...many }
  delete renamed.key4999
  expect(valueHash({ ...renamed, key5000: 4999 })).not.toBe(first)
})
