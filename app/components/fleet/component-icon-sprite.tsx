import { COMPONENT_ICONS } from './device-tree'

const symbolId = (component: string) => `pf-component-icon-${component in COMPONENT_ICONS ? component : 'other'}`

/**
 * The device component icons once per page as SVG symbols. A table that shows a device summary per
 * row (the project's Agents tab) otherwise repeats every icon's paths in every row: ~1.7 KB of
 * HTML and a dozen elements for React to render per row.
 */
export function ComponentIconSprite() {
  return (
    <svg aria-hidden className="absolute size-0 overflow-hidden">
      {Object.entries(COMPONENT_ICONS).map(([component, Icon]) => (
        <symbol key={component} id={symbolId(component)} viewBox="0 0 24 24">
          <Icon />
        </symbol>
      ))}
    </svg>
  )
}

/** A component icon drawn from <ComponentIconSprite> (which must be on the page). */
export function SpriteComponentIcon({ component, className }: { component: string; className?: string }) {
  return (
    <svg aria-hidden className={className ?? 'size-3.5 text-muted-foreground'} data-component-icon={component}>
      <use href={`#${symbolId(component)}`} />
    </svg>
  )
}
