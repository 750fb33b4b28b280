import { forwardRef, type SelectHTMLAttributes } from 'react'
import { cn } from '~/utils/cn'

/** A styled native <select>: keyboard and screen-reader friendly, and simple to drive in tests. */
export const NativeSelect = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement>>(({ className, ...props }, ref) => (
  <select
    ref={ref}
    className={cn(
      'h-8 rounded-md border border-input bg-card px-2 text-sm shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-60 aria-[invalid=true]:border-destructive',
      className,
    )}
    {...props}
  />
))
NativeSelect.displayName = 'NativeSelect'
