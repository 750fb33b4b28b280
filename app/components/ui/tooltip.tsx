import * as TooltipPrimitive from '@radix-ui/react-tooltip'
import { cloneElement, isValidElement, useContext, type ReactElement, type ReactNode } from 'react'
import { InsideTooltipHost } from './delegated-tooltip'

export const TooltipProvider = TooltipPrimitive.Provider

export function Tooltip({ content, children, side = 'top' }: { content: ReactNode; children: ReactNode; side?: 'top' | 'right' | 'bottom' | 'left' }) {
  // inside a TooltipHost (a table) a text tooltip is one attribute, shown by the host: no Radix tooltip per cell
  const delegated = useContext(InsideTooltipHost)
  if (delegated && typeof content === 'string' && isValidElement(children)) return cloneElement(children as ReactElement<{ 'data-tip'?: string }>, { 'data-tip': content })
  return (
    <TooltipPrimitive.Root delayDuration={200}>
      <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
      <TooltipPrimitive.Portal>
        <TooltipPrimitive.Content side={side} sideOffset={4} className="z-50 rounded bg-foreground px-2 py-1 text-xs text-background shadow">
          {content}
        </TooltipPrimitive.Content>
      </TooltipPrimitive.Portal>
    </TooltipPrimitive.Root>
  )
}
