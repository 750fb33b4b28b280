/**
 * The order people read names in: "Venue 2" before "Venue 10", case and accents ignored ("venue 3"
 * between them, "Ärena" with the A's). One collator for the process, made once: building one per
 * comparison (String#localeCompare with options) costs far more than the comparison.
 *
 * Lists sorted in SQL with paging (the agents list, the admin area's lists) still sort in the
 * database's text order (docs/decisions/099-names-in-reading-order.md).
 */
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' })

/** Compares two names as people read them; equal for names that differ only in case or accents. */
export function compareNames(a: string, b: string): number {
  return collator.compare(a, b)
}

/** Array#sort comparator of things with a `name`. */
export function byName<T extends { name: string }>(a: T, b: T): number {
  return compareNames(a.name, b.name)
}

/** A copy of `items` in name order (`nameOf` picks the name). */
export function sortedByName<T>(items: readonly T[], nameOf: (item: T) => string): T[] {
  return [...items].sort((a, b) => compareNames(nameOf(a), nameOf(b)))
}
