/**
 * Seeded randomness for the simulator. Every model draws from its own stream derived from the
 * fleet seed and a label (`fork`), so adding a device or an agent does not shift the numbers
 * any other one sees, and a run with the same seed is repeatable.
 */

/** mulberry32: a small, fast 32-bit generator; plenty for simulated telemetry. */
function mulberry32(seed: number) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** FNV-1a over a string, used to turn (seed, label) into a child seed. */
function hashString(text: string, basis = 0x811c9dc5) {
  let hash = basis >>> 0
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash
}

const SERIAL_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'

export class Random {
  private readonly next: () => number

  constructor(readonly seed: number) {
    this.next = mulberry32(seed)
  }

  /** An independent stream for a named part of the simulation. */
  fork(label: string): Random {
    return new Random(hashString(label, this.seed ^ 0x9e3779b9))
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.next()
  }

  /** Uniform in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.next()
  }

  /** Whole number in [min, max] inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  chance(probability: number): boolean {
    return this.next() < probability
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Random.pick needs at least one item')
    return items[Math.floor(this.next() * items.length)]
  }

  /** Approximately normal noise (sum of uniforms), mean 0. */
  noise(spread: number): number {
    return (this.next() + this.next() + this.next() - 1.5) * spread
  }

  /** Serial such as `LMR-7K2Q9D4X`: prefix plus unambiguous upper-case characters. */
  serial(prefix: string, length = 8): string {
    let text = ''
    for (let i = 0; i < length; i++) text += SERIAL_ALPHABET[Math.floor(this.next() * SERIAL_ALPHABET.length)]
    return `${prefix}-${text}`
  }
}

/** A seed from free text or a number (`--seed 7`, `--seed demo`). */
export function seedFrom(value: number | string): number {
  return typeof value === 'number' && Number.isInteger(value) ? value >>> 0 : hashString(String(value))
}

/** Rounds to a number of decimals, for readings that should look like instrument values. */
export function round(value: number, decimals = 1): number {
  const factor = 10 ** decimals
  return Math.round(value * factor) / factor
}
