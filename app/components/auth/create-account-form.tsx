import { useEffect, useState } from 'react'
import { AuthErrorBox } from '~/components/auth/auth-card'
import { PasswordRulesChecklist } from '~/components/auth/password-rules'
import { useIntentFetcher } from '~/components/auth/use-intent-fetcher'
import { Button } from '~/components/ui/button'
import { Field, issueFor } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { failedPasswordRules, isValidEmail } from '~/domain/auth/password-rules'

/** The login page's sign-up form; the password rules are checked as the person types. */
export function CreateAccountForm({
  email,
  onEmailChange,
  onCreated,
  onBack,
}: {
  email: string
  onEmailChange: (email: string) => void
  onCreated: () => void
  onBack: () => void
}) {
  const create = useIntentFetcher('create')
  const [name, setName] = useState('')
  const [password, setPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const valid = isValidEmail(email) && name.trim().length > 0 && failedPasswordRules(password, confirmation).length === 0
  const issues = create.failure?.issues ?? []

  useEffect(() => {
    if (create.result?.ok) onCreated()
  }, [create.result, onCreated])

  return (
    <form
      method="post"
      className="flex flex-col gap-3"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        if (valid) create.fetcher.submit({ intent: 'create', email, name, password, confirmation }, { method: 'post' })
      }}
    >
      <input type="hidden" name="intent" value="create" />
      <p className="text-[13px] text-muted-foreground">Create an account. We will send a link to verify your email address.</p>
      {create.failure && !issues.length ? <AuthErrorBox title="Account creation failed" code={create.failure.code} message={create.failure.message} /> : null}
      <Field label="Email" error={issueFor(issues, 'email') ?? (email && !isValidEmail(email) ? 'Enter a valid email address' : undefined)}>
        {(p) => <Input {...p} name="email" type="email" autoComplete="email" value={email} onChange={(e) => onEmailChange(e.target.value)} />}
      </Field>
      <Field label="Name" error={issueFor(issues, 'name')}>
        {(p) => <Input {...p} name="name" autoComplete="name" autoFocus value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <Field label="Password" error={issueFor(issues, 'password')}>
        {(p) => <Input {...p} name="password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />}
      </Field>
      <Field label="Confirm Password" error={issueFor(issues, 'confirmation')}>
        {(p) => (
          <Input {...p} name="confirmation" type="password" autoComplete="new-password" value={confirmation} onChange={(e) => setConfirmation(e.target.value)} />
        )}
      </Field>
      <PasswordRulesChecklist password={password} confirmation={confirmation} />
      <p className="text-xs text-muted-foreground">
        By creating an account you agree to the{' '}
        <a href="https://pixelfleet.io/terms" target="_blank" rel="noreferrer" className="text-primary hover:underline">
          Terms of Service
        </a>{' '}
        and the{' '}
        <a href="https://pixelfleet.io/privacy" target="_blank" rel="noreferrer" className="text-primary hover:underline">
          Privacy Policy
        </a>
        .
      </p>
      <div className="flex items-center justify-between gap-2">
        <button type="button" className="text-xs text-primary hover:underline" onClick={onBack}>
          Already have an account? Back to login
        </button>
        <Button type="submit" disabled={!valid || create.busy}>
          Save
        </Button>
      </div>
    </form>
  )
}
