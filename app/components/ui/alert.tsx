import { AlertTriangle, CheckCircle2, Info, XCircle } from 'lucide-react'
import { type ReactNode } from 'react'
import { cn } from '~/utils/cn'

const styles = {
  info: { box: 'border-blue-200 bg-blue-50 text-blue-900', Icon: Info },
  success: { box: 'border-emerald-200 bg-emerald-50 text-emerald-900', Icon: CheckCircle2 },
  warning: { box: 'border-amber-200 bg-amber-50 text-amber-900', Icon: AlertTriangle },
  error: { box: 'border-red-200 bg-red-50 text-red-900', Icon: XCircle },
} as const

export function Alert({ type = 'info', title, children, className }: { type?: keyof typeof styles; title?: ReactNode; children?: ReactNode; className?: string }) {
  const { box, Icon } = styles[type]
  return (
    <div role="alert" className={cn('flex gap-2 rounded-md border px-3 py-2 text-sm', box, className)}>
      <Icon className="mt-0.5 size-4 shrink-0" />
      <div className="flex flex-col gap-1">
        {title ? <p className="font-semibold">{title}</p> : null}
        {children ? <div className="text-[13px]">{children}</div> : null}
      </div>
    </div>
  )
}
