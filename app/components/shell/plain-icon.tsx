import { type ReactElement } from 'react'
import { type LucideIcon, type LucideProps } from 'lucide-react'

type IconNode = [tag: string, attrs: Record<string, string>][]
type LucideInner = ReactElement<{ iconNode?: IconNode; className?: string }>

const cache = new Map<LucideIcon, Map<string, ReactElement>>()

/**
 * A lucide icon as one plain, decorative <svg> element, built once per (icon, class) and reused by
 * every render: the same markup as `<Icon className={className} />`, without its two forwardRef
 * components and the class-name helpers they run per render, and with its paths as one piece of
 * markup instead of an element each (the shell draws ~20 icons with ~70 paths on every page: 40 %
 * of the elements React rendered for /about; docs/benchmarks.md, "Web request cost"). React does
 * not compare inner HTML when it hydrates, and the browser parses it in the SVG namespace. tests/unit/plain-icon.test.ts compares the markup
 * with lucide's own; should a lucide release no longer expose its paths this way, the icon
 * component itself is returned (same output, the old cost).
 */
export function plainIcon(Icon: LucideIcon, className = '', label?: string): ReactElement {
  let byClass = cache.get(Icon)
  if (!byClass) cache.set(Icon, (byClass = new Map()))
  const key = label === undefined ? className : `${className}\u0000${label}`
  let element = byClass.get(key)
  if (!element) {
    element = build(Icon, className, label)
    byClass.set(key, element)
  }
  return element
}

/** `label` makes the icon an image with that name (role img); without it the icon is decorative. */
function build(Icon: LucideIcon, className: string, label?: string): ReactElement {
  // lucide-react: forwardRef(({className, ...props}) => <Icon iconNode={...} className="lucide-<name> ..." />)
  const render = (Icon as unknown as { render?: (props: LucideProps, ref: null) => LucideInner }).render
  const inner = typeof render === 'function' ? render({}, null) : null
  const nodes = inner?.props.iconNode
  if (!Array.isArray(nodes) || typeof inner?.props.className !== 'string') return <Icon className={className || undefined} {...(label === undefined ? {} : { role: 'img', 'aria-label': label })} />
  // as lucide's mergeClasses('lucide', className) over its inner class list
  const classes = ['lucide', inner.props.className, className].filter((c, i, all) => c.trim() !== '' && all.indexOf(c) === i)
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={24}
      height={24}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={classes.join(' ').trim()}
      {...(label === undefined ? { 'aria-hidden': 'true' as const } : { role: 'img', 'aria-label': label })}
      dangerouslySetInnerHTML={{ __html: nodes.map(([tag, attrs]) => `<${tag}${attributes(attrs)}></${tag}>`).join('') }}
    />
  )
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#x27;')

/** ` name="value"` per attribute, as React writes them (lucide's `key` is React's, not the element's). */
function attributes(attrs: Record<string, string>): string {
  return Object.entries(attrs)
    .filter(([name]) => name !== 'key')
    .map(([name, value]) => ` ${name}="${escapeAttribute(String(value))}"`)
    .join('')
}
