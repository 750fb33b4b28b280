import * as SliderPrimitive from '@radix-ui/react-slider'
import * as SwitchPrimitive from '@radix-ui/react-switch'
import { useEffect, useState } from 'react'
import { MAX_SUBSCRIPTION_STEP, SUBSCRIPTION_STEPS } from '~/domain/notifications/severity'
import { cn } from '~/utils/cn'

/** The 5-step severity slider (off, critical, error, warning, notice), coloured by its step. */
export function SeveritySlider({ label, value, disabled, onCommit }: { label: string; value: number; disabled?: boolean; onCommit: (step: number) => void }) {
  const [draft, setDraft] = useState(value)
  useEffect(() => setDraft(value), [value])
  const step = SUBSCRIPTION_STEPS[draft] ?? SUBSCRIPTION_STEPS[0]!
  return (
    <div className="flex items-center gap-3">
      <SliderPrimitive.Root
        className={cn('relative flex h-5 w-28 touch-none select-none items-center', disabled && 'opacity-50')}
        min={0}
        max={MAX_SUBSCRIPTION_STEP}
        step={1}
        value={[draft]}
        disabled={disabled}
        onValueChange={([v]) => setDraft(v!)}
        onValueCommit={([v]) => v !== value && onCommit(v!)}
      >
        <SliderPrimitive.Track className="relative h-1.5 grow overflow-hidden rounded-full bg-muted">
          <SliderPrimitive.Range className={cn('absolute h-full', step.color)} />
        </SliderPrimitive.Track>
        {/* tick marks for the five steps */}
        <span className="pointer-events-none absolute inset-x-[7px] flex justify-between">
          {SUBSCRIPTION_STEPS.map((s) => (
            <span key={s.step} className={cn('size-1 rounded-full', s.step <= draft ? 'bg-white/80' : 'bg-muted-foreground/40')} />
          ))}
        </span>
        <SliderPrimitive.Thumb
          aria-label={label}
          aria-valuetext={step.label}
          className={cn(
            'block size-4 rounded-full border-2 border-white shadow ring-1 ring-black/10 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:pointer-events-none',
            step.color,
          )}
        />
      </SliderPrimitive.Root>
      <span className={cn('inline-flex w-16 items-center gap-1.5 text-xs capitalize', disabled && 'text-muted-foreground')}>
        <span className={cn('size-2 rounded-full', step.color)} />
        {step.label}
      </span>
    </div>
  )
}

export function Switch({ checked, onCheckedChange, label, disabled }: { checked: boolean; onCheckedChange: (checked: boolean) => void; label: string; disabled?: boolean }) {
  return (
    <SwitchPrimitive.Root
      checked={checked}
      onCheckedChange={onCheckedChange}
      disabled={disabled}
      aria-label={label}
      className="relative inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent bg-input transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-50 data-[state=checked]:bg-primary"
    >
      <SwitchPrimitive.Thumb className="pointer-events-none block size-4 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-4" />
    </SwitchPrimitive.Root>
  )
}
