import { type ReactNode } from 'react'
import { Alert } from '../ui/alert'

/** The centred card of the pages outside the shell (sign-in, e-mail links). */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <main id="main-content" tabIndex={-1} className="flex min-h-screen flex-col items-center justify-center bg-background px-4 py-10 outline-none">
      <div className="w-full max-w-[400px]">
        <div className="mb-5 flex items-center justify-center gap-2">
          <img src="/favicon.svg" alt="" className="size-8" />
          <span className="text-lg font-semibold tracking-tight">Pixelfleet</span>
        </div>
        <div className="rounded-lg border bg-card shadow-sm">
          <div className="border-b px-6 py-4">
            <h1 className="text-base font-semibold">{title}</h1>
            {subtitle ? <p className="mt-0.5 text-[13px] text-muted-foreground">{subtitle}</p> : null}
          </div>
          <div className="flex flex-col gap-4 px-6 py-5">{children}</div>
        </div>
        <p className="mt-4 text-center text-xs text-muted-foreground">Cloud management for LED-wall and virtual-production fleets</p>
      </div>
    </main>
  )
}

/** An error box with the message and '(error code: X)', as the sign-in and link pages show them. */
export function AuthErrorBox({ title, code, message, children }: { title: string; code: string; message: string; children?: ReactNode }) {
  return (
    <Alert type="error" title={title}>
      <p>
        {message} <span className="whitespace-nowrap text-xs text-red-800/80">(error code: {code})</span>
      </p>
      {children}
    </Alert>
  )
}
