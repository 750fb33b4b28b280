import { Building2, ChevronRight, CircleUser, Cpu, ExternalLink, Gauge, Home, Menu, Monitor, NotebookPen } from 'lucide-react'
import { createElement as h } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { plainIcon } from '~/components/shell/plain-icon'

// the shell draws these icons as plain <svg> elements (app/components/shell/plain-icon.tsx)
describe('plainIcon', () => {
  const cases: [string, typeof Gauge, string][] = [
    ['Gauge', Gauge, ''],
    ['Cpu', Cpu, ''],
    ['Building2 (two lucide class names)', Building2, 'size-4 shrink-0 text-sidebar-muted'],
    ['ExternalLink', ExternalLink, 'ml-auto !size-3 opacity-60'],
    ['CircleUser', CircleUser, 'size-5 shrink-0'],
    ['Home', Home, 'size-4'],
    ['ChevronRight', ChevronRight, 'size-3.5 shrink-0'],
    ['Menu', Menu, 'size-5'],
    ['Monitor', Monitor, ''],
    ['NotebookPen', NotebookPen, ''],
  ]
  it.each(cases)('%s renders the markup of the lucide component', (_, Icon, className) => {
    expect(renderToStaticMarkup(plainIcon(Icon, className))).toBe(renderToStaticMarkup(h(Icon, { className: className || undefined })))
  })

  it('with a label is a named image (a connection state in a table row), else decorative', () => {
    const named = renderToStaticMarkup(plainIcon(Gauge, 'size-4 text-emerald-600', 'Connected'))
    expect(named).toBe(renderToStaticMarkup(h(Gauge, { className: 'size-4 text-emerald-600' })).replace(' aria-hidden="true"', ' role="img" aria-label="Connected"'))
    expect(plainIcon(Gauge, 'size-4', 'Connected')).not.toBe(plainIcon(Gauge, 'size-4', 'Disconnected'))
    expect(plainIcon(Gauge, 'size-4', 'Connected')).toBe(plainIcon(Gauge, 'size-4', 'Connected'))
  })

  it('builds one element per icon and class, reused by every render', () => {
    expect(plainIcon(Gauge, 'size-4')).toBe(plainIcon(Gauge, 'size-4'))
    expect(plainIcon(Gauge, 'size-4')).not.toBe(plainIcon(Gauge))
  })

  it('falls back to the component for something that is not a lucide icon', () => {
    const Custom = ((props: { className?: string }) => h('svg', { className: props.className })) as unknown as typeof Gauge
    expect(renderToStaticMarkup(plainIcon(Custom, 'x'))).toBe('<svg class="x"></svg>')
  })
})
