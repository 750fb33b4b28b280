import { createContext, useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { createPortal } from 'react-dom'

/** True inside a TooltipHost: ui/tooltip's `Tooltip` then marks its trigger with data-tip instead of mounting a Radix tooltip. */
export const InsideTooltipHost = createContext(false)

type Tip = { text: string; x: number; y: number; below: boolean }

const TIP_SELECTOR = '[data-tip]'
const DELAY_MS = 200

/**
 * One tooltip for every `[data-tip]` element inside it (shown on hover after 200 ms and on
 * keyboard focus, hidden on leave, blur and Escape), looking like ui/tooltip. A Radix tooltip per
 * element costs its providers and prop merging in every server render; a table of 40 projects
 * had ~400 of them. `text` may compose the shown text from the element (time-dependent parts
 * are computed when shown, not when the page was rendered). Inside it, ui/tooltip's `Tooltip`
 * with text content uses this host too (tables of agents: three tooltips per row).
 */
export function TooltipHost({ children, text, className }: { children: ReactNode; text?: (element: HTMLElement) => string; className?: string }) {
  const [tip, setTip] = useState<Tip | null>(null)
  const host = useRef<HTMLDivElement>(null)
  const timer = useRef<ReturnType<typeof setTimeout>>()
  const current = useRef<HTMLElement | null>(null)
  const id = useId()

  const hide = () => {
    clearTimeout(timer.current)
    current.current?.removeAttribute('aria-describedby')
    current.current = null
    setTip(null)
  }
  const show = (element: HTMLElement) => {
    const rect = element.getBoundingClientRect()
    const below = rect.top < 32
    current.current = element
    element.setAttribute('aria-describedby', id)
    setTip({
      text: text ? text(element) : element.dataset.tip ?? '',
      x: rect.left + rect.width / 2,
      y: below ? rect.bottom + 4 : rect.top - 4,
      below,
    })
  }
  const target = (node: EventTarget | null) => (node instanceof Element ? node.closest<HTMLElement>(TIP_SELECTOR) : null)

  useEffect(() => {
    if (!tip) return
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && hide()
    window.addEventListener('keydown', onKey)
    window.addEventListener('scroll', hide, true)
    return () => {
      window.removeEventListener('keydown', onKey)
      window.removeEventListener('scroll', hide, true)
    }
  })
  useEffect(() => () => clearTimeout(timer.current), [])

  return (
    <div
      ref={host}
      className={className}
      onPointerOver={(e) => {
        const element = target(e.target)
        if (element === current.current) return
        hide()
        if (element) timer.current = setTimeout(() => show(element), DELAY_MS)
      }}
      onPointerLeave={hide}
      onFocus={(e) => {
        const element = target(e.target)
        hide()
        if (element && element.matches(':focus-visible')) show(element)
      }}
      onBlur={hide}
      onClick={hide}
    >
      <InsideTooltipHost.Provider value={true}>{children}</InsideTooltipHost.Provider>
      {tip
        ? createPortal(
            <div
              id={id}
              role="tooltip"
              className="pointer-events-none fixed z-50 rounded bg-foreground px-2 py-1 text-xs text-background shadow"
              style={{
                left: tip.x,
                top: tip.y,
                transform: tip.below ? 'translateX(-50%)' : 'translate(-50%, -100%)',
              }}
            >
              {tip.text}
            </div>,
            document.body
          )
        : null}
    </div>
  )
}
