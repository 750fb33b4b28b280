import { Cpu, Fan, Grid3x3, HardDrive, Monitor, Network, Plug, Projector, Server } from 'lucide-react'
import { IconSprite, SpriteIcon } from '../ui/icon-sprite'

export const COMPONENT_ICONS: Record<string, typeof Cpu> = {
  display: Monitor,
  matrix: Grid3x3,
  other: HardDrive,
  pdu: Plug,
  processor: Cpu,
  projector: Projector,
  receiver: Fan,
  switch: Network,
  system: Server,
}

const PREFIX = 'pf-component-icon'

/**
 * The device component icons once per page. A table that shows a device summary per row (the
 * project's Agents tab) or a device tree (device-tree.tsx: agent detail, project Devices tab)
 * otherwise repeats every icon's paths in every row: ~1.7 KB of HTML and a dozen elements for
 * React to render per row.
 */
export function ComponentIconSprite() {
  return <IconSprite prefix={PREFIX} icons={COMPONENT_ICONS} />
}

/** A component icon drawn from <ComponentIconSprite> (which must be on the page). */
export function SpriteComponentIcon({ component, className }: { component: string; className?: string }) {
  return <SpriteIcon prefix={PREFIX} name={component in COMPONENT_ICONS ? component : 'other'} className={className ?? 'size-3.5 text-muted-foreground'} data-component-icon={component} />
}
