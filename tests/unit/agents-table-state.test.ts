import { describe, expect, it } from 'vitest'
import { encodeState, parseColumns, parseExpanded, parseFilters, parseSorting } from '~/domain/fleet/agents-table-state'

// The agents table's URL state is checked by hand (decision 084: zod stays out of the page's browser code);
// what a crafted or stale URL can carry is ignored, never an error.
describe('agents table URL state', () => {
  it('keeps valid filters one by one and drops the rest', () => {
    const long = 'x'.repeat(201)
    const filters = [
      { id: 'name', value: 'Wall' },
      { id: 'product', value: ['Helios', 'Tessera'], extra: 'dropped' },
      { id: 'name', value: long },
      { id: 'version', value: [long] },
      { id: 'version', value: 'not a list' },
      { id: 'password', value: ['x'] },
      null,
      ['product', ['Helios']],
    ]
    expect(parseFilters(encodeState(filters))).toEqual([
      { id: 'name', value: 'Wall' },
      { id: 'product', value: ['Helios', 'Tessera'] },
    ])
    // more than 10 entries, or not a list: none
    expect(parseFilters(encodeState(Array.from({ length: 11 }, () => ({ id: 'name', value: 'a' }))))).toEqual([])
    expect(parseFilters(encodeState({ id: 'name', value: 'a' }))).toEqual([])
    expect(parseFilters(encodeState([{ id: 'input', value: Array.from({ length: 201 }, () => 'a') }]))).toEqual([])
    expect(parseFilters('%%% not base64')).toEqual([])
    expect(parseFilters(null)).toEqual([])
  })

  it('takes a sorting only when every entry is a sortable column, once each', () => {
    expect(parseSorting(encodeState([{ id: 'name', desc: true }, { id: 'name', desc: false }]))).toEqual([{ id: 'name', desc: true }])
    expect(parseSorting(encodeState([{ id: 'name', desc: 'yes' }]))).toEqual([])
    expect(parseSorting(encodeState([{ id: 'name', desc: true }, { id: 'password', desc: true }]))).toEqual([])
  })

  it('reads expanded rows and column visibility as flags, never touching a prototype', () => {
    expect(parseColumns(encodeState({ serial: true, id: false }))).toEqual({ serial: true, id: false })
    expect(parseExpanded(encodeState({ a1: true, b2: 'open' }))).toEqual({})
    expect(parseExpanded(encodeState({ ['k'.repeat(65)]: true }))).toEqual({})
    expect(parseColumns(btoa('{"__proto__": {"polluted": true}, "serial": true}'))).toEqual({})
    const crafted = parseColumns(btoa('{"__proto__": true, "serial": true}'))
    expect(crafted).toEqual({ serial: true })
    expect(Object.getPrototypeOf(crafted)).toBe(Object.prototype)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
