import { Check, X } from 'lucide-react'
import { PASSWORD_RULES } from '~/domain/auth/password-rules'
import { cn } from '~/utils/cn'

/** The five password rules as a live checklist (spec 01 section 5). */
export function PasswordRulesChecklist({ password, confirmation }: { password: string; confirmation: string }) {
  return (
    <ul className="flex flex-col gap-0.5 rounded-md border bg-muted/50 px-3 py-2 text-xs" aria-label="Password rules">
      {PASSWORD_RULES.map((rule) => {
        const ok = rule.test(password, confirmation)
        return (
          <li key={rule.id} data-ok={ok} className={cn('flex items-center gap-1.5', ok ? 'text-emerald-700' : 'text-muted-foreground')}>
            {ok ? <Check className="size-3.5 shrink-0" aria-hidden /> : <X className="size-3.5 shrink-0 text-red-500" aria-hidden />}
            {rule.description}
          </li>
        )
      })}
    </ul>
  )
}
