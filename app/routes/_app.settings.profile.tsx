import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData, useRevalidator } from '@remix-run/react'
import { KeyRound, Mail, RotateCw } from 'lucide-react'
import { useEffect, useState, type ReactNode } from 'react'
import { toast } from 'sonner'
import { PasswordRulesChecklist } from '~/components/auth/password-rules'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { InlineEditField, toastError } from '~/components/inline-edit-field'
import { Alert } from '~/components/ui/alert'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Dialog } from '~/components/ui/dialog'
import { Field, issueFor } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { NativeSelect } from '~/components/ui/native-select'
import { accountFlags } from '~/domain/auth/own-account.server'
import { failedPasswordRules, isValidEmail } from '~/domain/auth/password-rules'
import { ApiError, callApi } from '~/utils/api-client'
import { requireUser } from '~/utils/auth.server'
import { localeLabel, resolveLocale, SUPPORTED_LOCALES } from '~/utils/locale'
import { useApiMutation } from '~/utils/use-api-mutation'

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request)
  const zones = Intl.supportedValuesOf('timeZone')
  return {
    user: {
      id: user.id,
      name: user.name,
      email: user.email,
      emailVerified: user.emailVerified,
      provider: user.provider,
      locale: user.locale,
      timeZone: user.timeZone,
    },
    flags: accountFlags(user),
    timeZones: zones.includes('UTC') ? zones : ['UTC', ...zones],
  }
}

export const meta: MetaFunction = () => [{ title: 'Profile · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'Profile', to: '.' }) }

type ProfileUser = ReturnType<typeof useLoaderData<typeof loader>>['user']

/** User settings, Profile: name, e-mail, password, language and time zone. */
export default function ProfileTab() {
  const { user, flags, timeZones } = useLoaderData<typeof loader>()
  const { revalidate } = useRevalidator()
  const { run, isPending } = useApiMutation()
  const [dialog, setDialog] = useState<'email' | 'password' | null>(null)

  return (
    <div className="flex max-w-3xl flex-col gap-4">
      <Card>
        <CardHeader>
          <CardTitle>Account</CardTitle>
          <CardDescription>
            {flags.canChangeEmail ? 'How you sign in and how others see you.' : 'You sign in with Google; your name, email and password are managed there.'}
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col divide-y p-0">
          <Row>
            <InlineEditField
              label="Full name"
              field="name"
              value={user.name}
              canEdit={flags.canChangeName}
              onSave={async (name) => {
                await callApi('auth/nameChange', { uid: user.id, name })
                toast.success('Name changed')
                revalidate()
              }}
            />
          </Row>
          <Row label="Email">
            <div className="flex flex-wrap items-center gap-2">
              <span className="text-sm" data-testid="email-value">
                {user.email}
              </span>
              {user.emailVerified ? <Badge variant="success">Verified</Badge> : <Badge variant="warning">Unverified</Badge>}
              <div className="ml-auto flex gap-2">
                {user.emailVerified ? null : (
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={isPending('resend')}
                    onClick={() => run('public/auth/emailVerifyRequest', { email: user.email }, { key: 'resend', success: 'Email verification link sent' })}
                  >
                    <RotateCw /> Resend Verification
                  </Button>
                )}
                {flags.canChangeEmail ? (
                  <Button size="sm" variant="outline" onClick={() => setDialog('email')}>
                    <Mail /> Change
                  </Button>
                ) : null}
              </div>
            </div>
          </Row>
          <Row label="Password">
            <div className="flex items-center gap-2">
              <span className="text-sm tracking-widest text-muted-foreground">{flags.canChangePassword ? '••••••••••' : 'Managed by Google'}</span>
              {flags.canChangePassword ? (
                <Button size="sm" variant="outline" className="ml-auto" onClick={() => setDialog('password')}>
                  <KeyRound /> Update
                </Button>
              ) : null}
            </div>
          </Row>
        </CardContent>
      </Card>

      <RegionalSettings user={user} timeZones={timeZones} />

      <ChangeEmailDialog user={user} open={dialog === 'email'} onOpenChange={(open) => setDialog(open ? 'email' : null)} />
      <ChangePasswordDialog user={user} open={dialog === 'password'} onOpenChange={(open) => setDialog(open ? 'password' : null)} />
    </div>
  )
}

function Row({ label, children }: { label?: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1 px-4 py-3">
      {label ? <span className="text-xs font-medium text-foreground/80">{label}</span> : null}
      {children}
    </div>
  )
}

/** Language and time zone, each with a 'Set to' button offering the browser's value when it differs. */
function RegionalSettings({ user, timeZones }: { user: ProfileUser; timeZones: string[] }) {
  const { run } = useApiMutation()
  // The browser's values are known only after hydration.
  const [detected, setDetected] = useState<{ locale: string; timeZone: string } | null>(null)
  useEffect(() => {
    setDetected({ locale: resolveLocale(navigator.language), timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone })
  }, [])
  const save = (change: { locale: string } | { timeZone: string }, success: string) => run('user/updateProfile', change, { success })
  const locale = user.locale ? resolveLocale(user.locale) : ''

  return (
    <Card>
      <CardHeader>
        <CardTitle>Language and region</CardTitle>
        <CardDescription>Used for dates and times across the portal.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-2">
        <Field label="Language">
          {(p) => (
            <div className="flex items-center gap-2">
              <NativeSelect {...p} className="flex-1" value={locale} onChange={(e) => save({ locale: e.target.value }, 'Language saved')}>
                {locale ? null : <option value="">Not set</option>}
                {SUPPORTED_LOCALES.map((l) => (
                  <option key={l.value} value={l.value}>
                    {l.label}
                  </option>
                ))}
              </NativeSelect>
              {detected && detected.locale !== locale ? (
                <Button size="sm" variant="outline" onClick={() => save({ locale: detected.locale }, 'Language saved')}>
                  Set to {localeLabel(detected.locale)}
                </Button>
              ) : null}
            </div>
          )}
        </Field>
        <Field label="Time Zone">
          {(p) => (
            <div className="flex items-center gap-2">
              <NativeSelect {...p} className="min-w-0 flex-1" value={user.timeZone ?? ''} onChange={(e) => save({ timeZone: e.target.value }, 'Time zone saved')}>
                {user.timeZone ? null : <option value="">Not set</option>}
                {timeZones.map((tz) => (
                  <option key={tz} value={tz}>
                    {tz.replaceAll('_', ' ')}
                  </option>
                ))}
              </NativeSelect>
              {detected && detected.timeZone !== user.timeZone ? (
                <Button size="sm" variant="outline" onClick={() => save({ timeZone: detected.timeZone }, 'Time zone saved')}>
                  Set to {detected.timeZone.replaceAll('_', ' ')}
                </Button>
              ) : null}
            </div>
          )}
        </Field>
      </CardContent>
    </Card>
  )
}

/** The server's per-field messages for `fields`; an error naming none of them becomes a toast. */
function fieldErrors<K extends string>(error: unknown, fields: K[]): Partial<Record<K, string>> {
  const issues = error instanceof ApiError ? error.issues : []
  const found = Object.fromEntries(fields.flatMap((f) => (issueFor(issues, f) ? [[f, issueFor(issues, f)]] : []))) as Partial<Record<K, string>>
  if (Object.keys(found).length === 0) toastError(error)
  return found
}

type DialogProps = { user: ProfileUser; open: boolean; onOpenChange: (open: boolean) => void }

function ChangeEmailDialog({ user, open, onOpenChange }: DialogProps) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<{ email?: string; currentPassword?: string }>({})
  const [busy, setBusy] = useState(false)
  const valid = isValidEmail(email) && password.length > 0

  const submit = async () => {
    setBusy(true)
    try {
      await callApi('auth/emailChange', { uid: user.id, email, password })
      // Every session ended with the change: a full page load starts the signed-out app afresh.
      window.location.assign(`/login/email/${encodeURIComponent(email.trim().toLowerCase())}?notice=emailChanged`)
    } catch (error) {
      setErrors(fieldErrors(error, ['email', 'currentPassword']))
      setBusy(false)
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) {
          setEmail('')
          setPassword('')
          setErrors({})
        }
        onOpenChange(next)
      }}
      title="Change Email"
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button form="change-email" type="submit" disabled={!valid || busy}>
            Change Email
          </Button>
        </>
      }
    >
      <form
        id="change-email"
        className="flex flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault()
          if (valid) void submit()
        }}
      >
        <Alert type="warning" title="You will be logged out immediately">
          To log in again you must verify the new address through the link sent to it.
        </Alert>
        <Field label="New Email" error={errors.email ?? (email && !isValidEmail(email) ? 'Enter a valid email address' : undefined)}>
          {(p) => <Input {...p} type="email" autoComplete="email" autoFocus value={email} onChange={(e) => setEmail(e.target.value)} />}
        </Field>
        <Field label="Current Password" error={errors.currentPassword}>
          {(p) => <Input {...p} type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />}
        </Field>
      </form>
    </Dialog>
  )
}

function ChangePasswordDialog({ user, open, onOpenChange }: DialogProps) {
  const [current, setCurrent] = useState('')
  const [password, setPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [errors, setErrors] = useState<{ currentPassword?: string; password?: string }>({})
  const [busy, setBusy] = useState(false)
  const valid = current.length > 0 && failedPasswordRules(password, confirmation).length === 0

  const close = () => {
    setCurrent('')
    setPassword('')
    setConfirmation('')
    setErrors({})
    onOpenChange(false)
  }
  const submit = async () => {
    setBusy(true)
    try {
      await callApi('auth/passwordChange', { uid: user.id, current, password })
      toast.success('Password changed')
      close()
    } catch (error) {
      setErrors(fieldErrors(error, ['currentPassword', 'password']))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title="Change Password"
      description="Other signed-in browsers and devices are signed out."
      footer={
        <>
          <Button variant="outline" onClick={close}>
            Cancel
          </Button>
          <Button form="change-password" type="submit" disabled={!valid || busy}>
            Save
          </Button>
        </>
      }
    >
      <form
        id="change-password"
        className="flex flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault()
          if (valid) void submit()
        }}
      >
        <Field label="Current Password" error={errors.currentPassword}>
          {(p) => <Input {...p} type="password" autoComplete="current-password" autoFocus value={current} onChange={(e) => setCurrent(e.target.value)} />}
        </Field>
        <Field label="New Password" error={errors.password}>
          {(p) => <Input {...p} type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />}
        </Field>
        <Field label="Confirm Password">
          {(p) => <Input {...p} type="password" autoComplete="new-password" value={confirmation} onChange={(e) => setConfirmation(e.target.value)} />}
        </Field>
        <PasswordRulesChecklist password={password} confirmation={confirmation} />
      </form>
    </Dialog>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
