import { describe, expect, it } from 'vitest'
import { byName, compareNames, sortedByName } from '~/utils/name-order'

describe('name order', () => {
  it('puts numbers in names in numeric order, ignoring case and accents', () => {
    const names = ['Venue 10', 'Venue 2', 'venue 3', 'Ärena', 'Zelt', 'arena 1', 'Venue 1']
    expect(sortedByName(names, (n) => n)).toEqual(['Ärena', 'arena 1', 'Venue 1', 'Venue 2', 'venue 3', 'Venue 10', 'Zelt'])
    expect(compareNames('Venue 2', 'Venue 10')).toBeLessThan(0)
    expect(compareNames('venue 3', 'Venue 3')).toBe(0)
    expect(compareNames('Ärena', 'Arena')).toBe(0)
  })

  it('sorts things by their name field, leaving the input alone', () => {
    const items = [{ name: 'Hall 11' }, { name: 'Hall 9' }]
    expect([...items].sort(byName).map((i) => i.name)).toEqual(['Hall 9', 'Hall 11'])
    const input = ['b 10', 'b 9']
    expect(sortedByName(input, (n) => n)).toEqual(['b 9', 'b 10'])
    expect(input).toEqual(['b 10', 'b 9'])
  })
})
