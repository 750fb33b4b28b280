import { type LucideIcon } from 'lucide-react'

/**
 * Icons once per page as SVG symbols, drawn with <SpriteIcon>: a table repeating an icon per row
 * otherwise repeats its paths in every row (HTML to send, elements for React to render).
 */
export function IconSprite({ prefix, icons }: { prefix: string; icons: Record<string, LucideIcon> }) {
  return (
    <svg aria-hidden className="absolute size-0 overflow-hidden">
      {Object.entries(icons).map(([name, Icon]) => (
        <symbol key={name} id={`${prefix}-${name}`} viewBox="0 0 24 24">
          <Icon />
        </symbol>
      ))}
    </svg>
  )
}

/** The symbol `name` of the <IconSprite> with `prefix` (which must be on the page); a `label` makes it an image, else it is decorative. */
export function SpriteIcon({ prefix, name, className, label, ...data }: { prefix: string; name: string; className?: string; label?: string } & Record<`data-${string}`, string>) {
  return (
    <svg {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })} className={className} {...data}>
      <use href={`#${prefix}-${name}`} />
    </svg>
  )
}
