import * as LabelPrimitive from '@radix-ui/react-label'
import { useId, type ReactNode } from 'react'
import { cn } from '~/utils/cn'

export function Label({ className, ...props }: LabelPrimitive.LabelProps) {
  return <LabelPrimitive.Root className={cn('text-xs font-medium text-foreground/80', className)} {...props} />
}

/** A labelled form field with its error text underneath (server field errors land here). */
export function Field({
  label,
  error,
  hint,
  children,
  className,
}: {
  label?: ReactNode
  error?: string | null
  hint?: ReactNode
  children: (props: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }) => ReactNode
  className?: string
}) {
  const id = useId()
  const errorId = `${id}-error`
  return (
    <div className={cn('flex flex-col gap-1', className)}>
      {label ? <Label htmlFor={id}>{label}</Label> : null}
      {children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': error ? errorId : undefined })}
      {error ? (
        <p id={errorId} role="alert" className="text-xs text-destructive">
          {error}
        </p>
      ) : hint ? (
        <p className="text-xs text-muted-foreground">{hint}</p>
      ) : null}
    </div>
  )
}

/** Picks the message for one field from a server issue list (path '' = general error). */
export function issueFor(issues: { path: string; message: string }[] | undefined, path: string): string | undefined {
  return issues?.find((i) => i.path === path)?.message
}
