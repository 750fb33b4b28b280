import { IconSprite, SpriteIcon } from '../ui/icon-sprite'
import { COMPONENT_ICONS } from './device-tree'

const PREFIX = 'pf-component-icon'

/**
 * The device component icons once per page. A table that shows a device summary per row (the
 * project's Agents tab) otherwise repeats every icon's paths in every row: ~1.7 KB of HTML and a
 * dozen elements for React to render per row.
 */
export function ComponentIconSprite() {
  return <IconSprite prefix={PREFIX} icons={COMPONENT_ICONS} />
}

/** A component icon drawn from <ComponentIconSprite> (which must be on the page). */
export function SpriteComponentIcon({ component, className }: { component: string; className?: string }) {
  return <SpriteIcon prefix={PREFIX} name={component in COMPONENT_ICONS ? component : 'other'} className={className ?? 'size-3.5 text-muted-foreground'} data-component-icon={component} />
}
