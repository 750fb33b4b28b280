import { rootCausesOfSystems } from '../rootcause/rootcause.server'

type FoldableItem = { issueId: string; systemId: string; kind: string; severity: number; message: string; component: string; escalated: boolean }

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/**
 * Root cause in e-mails (docs/root-cause.md): the items of one mail that an upstream cause
 * explains are replaced by ONE item naming the cause and how many devices it affects, so a
 * switch port that takes down 40 tiles is one line (one e-mail), not 40. The cause item takes
 * the place of the first item of its group; items nothing explains are left as they are.
 */
export async function foldRootCauses<T extends FoldableItem>(items: T[]): Promise<T[]> {
  if (items.length === 0) return items
  const { groups } = await rootCausesOfSystems(items.map((i) => i.systemId))
  if (!groups.length) return items
  const groupOf = new Map<string, (typeof groups)[number]>()
  for (const g of groups) {
    groupOf.set(g.cause.id, g)
    for (const i of g.explained) groupOf.set(i.id, g)
  }
  const placed = new Set<string>()
  const folded: T[] = []
  for (const item of items) {
    const group = groupOf.get(item.issueId)
    if (!group) {
      folded.push(item)
      continue
    }
    if (placed.has(group.cause.id)) continue
    placed.add(group.cause.id)
    const cause = group.cause
    folded.push({
      ...item,
      issueId: cause.id,
      kind: cause.kind,
      // the worst of the cause and what it explains, so critical tiles under an error port notify as critical
      severity: group.severity,
      component: cause.component,
      escalated: false,
      message: `Root cause: ${cause.message || cause.key} affects ${plural(group.deviceCount, 'device')} (explains ${plural(group.explained.length, 'issue')})`,
    })
  }
  return folded
}
