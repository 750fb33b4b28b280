import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useFetcher, useLoaderData, useNavigate, useSearchParams, type ShouldRevalidateFunction } from '@remix-run/react'
import { Cpu, KeyRound } from 'lucide-react'
import { useState } from 'react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PageHeader } from '~/components/page-header'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { DateTime } from '~/components/ui/date-time'
import { Combobox, type ComboboxValue } from '~/components/ui/combobox'
import { Field, issueFor } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { NativeSelect } from '~/components/ui/native-select'
import { DomainError } from '~/domain/errors'
import {
  ENROLLMENT_CODE_PLACEHOLDER,
  ENROLLMENT_ERROR_TITLE,
  enrollmentCodeProblem,
  formatEnrollmentCode,
  normalizeEnrollmentCode,
} from '~/domain/agents/enrollment-code'
import { enrollAgent, listEnrollmentTargets, lookupApplication, type ApplicationLookup } from '~/domain/agents/enrollment.server'
import { requireUser } from '~/utils/auth.server'
import { formAction, type ActionFailure } from '~/utils/errors.server'
import { readFormData } from '~/utils/form.server'

export const meta: MetaFunction = () => [{ title: 'Enroll Agent | Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'Enroll Agent', to: '.' }) }

const NEW_PROJECT = '__new__'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const code = params.applicationCode ?? ''
  let lookup: ApplicationLookup | null = null
  let lookupError: string | null = null
  if (code) {
    try {
      lookup = await lookupApplication(actor, code)
    } catch (error) {
      if (!(error instanceof DomainError)) throw error
      lookupError = error.message
    }
  }
  const targets = lookup ? await listEnrollmentTargets(actor) : []
  return { code, lookup, lookupError, targets }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { actor } = await requireUser(request)
  const form = await readFormData(request)
  const text = (name: string) => {
    const value = form.get(name)
    return typeof value === 'string' ? value : undefined
  }
  return formAction(async () => {
    const { organizationId } = await enrollAgent(actor, {
      applicationCode: params.applicationCode ?? '',
      organizationId: text('organizationId'),
      newOrganizationName: text('newOrganizationName'),
      projectId: text('projectId'),
      newProjectName: text('newProjectName'),
    })
    throw redirect(`/organization/${organizationId}`)
  })
}

/** A refused enroll changes nothing: skip the reload, which would spend a (rate-limited) lookup. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  actionResult && actionResult.ok === false ? false : defaultShouldRevalidate

export default function EnrollPage() {
  const { code, lookup, lookupError } = useLoaderData<typeof loader>()
  return (
    <div className="max-w-2xl">
      <PageHeader title="Enroll Agent" subtitle="Connect an agent to one of your organizations with the code it shows." />
      {lookup ? (
        <EnrollForm key={code} />
      ) : (
        <div className="flex flex-col gap-4">
          {lookupError ? (
            <Alert type="warning" title={ENROLLMENT_ERROR_TITLE}>
              {lookupError}
            </Alert>
          ) : null}
          <CodeForm initial={code} />
        </div>
      )}
    </div>
  )
}

/** Code entry: validated and normalised (dashes removed, upper-cased) before navigating to /enroll/{code}. */
function CodeForm({ initial }: { initial: string }) {
  const navigate = useNavigate()
  const [searchParams] = useSearchParams()
  const [value, setValue] = useState(initial ? formatEnrollmentCode(initial) : '')
  const [problem, setProblem] = useState<string | null>(null)
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRound className="size-4 text-muted-foreground" /> Enrollment code
        </CardTitle>
        <CardDescription>The agent shows an enrollment code on its display or web page. Codes are valid for 14 days.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form
          className="flex items-start gap-2"
          noValidate
          onSubmit={(e) => {
            e.preventDefault()
            const message = enrollmentCodeProblem(value)
            setProblem(message)
            if (message) return
            const query = searchParams.toString()
            navigate(`/enroll/${encodeURIComponent(normalizeEnrollmentCode(value))}${query ? `?${query}` : ''}`)
          }}
        >
          <Field label="Code" error={problem} className="w-64">
            {(props) => (
              <Input
                {...props}
                name="applicationCode"
                autoFocus
                autoComplete="off"
                spellCheck={false}
                placeholder={ENROLLMENT_CODE_PLACEHOLDER}
                className="font-mono uppercase tracking-widest placeholder:normal-case placeholder:tracking-normal"
                value={value}
                onChange={(e) => {
                  setValue(e.target.value)
                  setProblem(null)
                }}
              />
            )}
          </Field>
          <Button type="submit" className="mt-5">
            Look up
          </Button>
        </Form>
      </CardContent>
    </Card>
  )
}

function EnrollForm() {
  const { code, lookup, targets } = useLoaderData<typeof loader>()
  const [searchParams] = useSearchParams()
  const navigate = useNavigate()
  const fetcher = useFetcher<ActionFailure>()

  const preselected = targets.find((t) => t.id === searchParams.get('organizationId'))
  const [organization, setOrganization] = useState<ComboboxValue>(preselected ? { kind: 'option', value: preselected.id } : null)
  const selectedTarget = organization?.kind === 'option' ? targets.find((t) => t.id === organization.value) : undefined
  const projects = selectedTarget?.projects ?? []
  const queryProject = searchParams.get('projectId')
  const [project, setProject] = useState<string>(projects.some((p) => p.id === queryProject) ? queryProject! : '')
  const [newProjectName, setNewProjectName] = useState('')
  // A new organization has no projects yet: its first project is always a new one.
  const projectChoice = organization?.kind === 'new' ? NEW_PROJECT : project

  // Success redirects to the organization; only a refusal comes back here.
  const failure = fetcher.data
  const issues = failure?.issues ?? []
  const generalError = failure && !issues.some((i) => i.path) ? failure.message : null

  const allowsEnroll = organization?.kind === 'new' || Boolean(selectedTarget?.canEnroll)
  const canSubmit = allowsEnroll && Boolean(code) && Boolean(lookup) && organization !== null && fetcher.state === 'idle'

  return (
    <Card>
      <CardHeader>
        <CardTitle>Device</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="flex items-center gap-3 rounded-md border bg-muted/40 px-3 py-2.5">
          <div className="flex size-9 items-center justify-center rounded-md bg-primary/10 text-primary">
            <Cpu className="size-5" />
          </div>
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-semibold" data-testid="enroll-agent-name">
              {lookup?.agentName || 'Unknown Name'}
            </p>
            <p className="truncate text-xs text-muted-foreground" data-testid="enroll-agent-product">
              {lookup?.agentProduct || 'Unknown Product'}
            </p>
          </div>
          <div className="text-right text-xs text-muted-foreground">
            <p className="font-mono text-sm text-foreground">{lookup?.applicationCode}</p>
            {lookup ? <p>Code issued <DateTime value={lookup.applicationCreated} /></p> : null}
          </div>
        </div>

        <fetcher.Form method="post" className="flex flex-col gap-4">
          <Field label="Organization" error={issueFor(issues, 'organizationId') ?? (selectedTarget && !selectedTarget.canEnroll ? 'You may not enroll agents in this organization' : null)}>
            {(props) => (
              <Combobox
                {...props}
                options={targets.map((t) => ({ value: t.id, label: t.name, hint: t.canEnroll ? undefined : 'no enroll permission' }))}
                value={organization}
                onChange={(value) => {
                  setOrganization(value)
                  setProject('')
                }}
                allowCreate
                createLabel={(name) => `Create organization '${name}'`}
                placeholder="Select or type a new organization name"
              />
            )}
          </Field>
          {organization?.kind === 'option' ? <input type="hidden" name="organizationId" value={organization.value} /> : null}
          {organization?.kind === 'new' ? (
            <>
              <input type="hidden" name="newOrganizationName" value={organization.name} />
              <p className="-mt-2 text-xs text-muted-foreground">A new organization '{organization.name}' will be created with you as its owner.</p>
            </>
          ) : null}

          <Field label="Project" error={issueFor(issues, 'projectId')}>
            {(props) => (
              <NativeSelect
                {...props}
                name={projectChoice === NEW_PROJECT ? undefined : 'projectId'}
                value={projectChoice}
                disabled={!organization || organization.kind === 'new'}
                onChange={(e) => setProject(e.target.value)}
              >
                <option value="">Select a project</option>
                {projects.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
                <option value={NEW_PROJECT}>New Project</option>
              </NativeSelect>
            )}
          </Field>
          {projectChoice === NEW_PROJECT ? (
            <Field label="Project Name" error={issueFor(issues, 'newProjectName')}>
              {(props) => <Input {...props} name="newProjectName" value={newProjectName} onChange={(e) => setNewProjectName(e.target.value)} />}
            </Field>
          ) : null}

          {generalError ? <Alert type="error">{generalError}</Alert> : null}
          <div className="flex justify-end gap-2 border-t pt-4">
            <Button type="button" variant="outline" onClick={() => navigate('/enroll')}>
              Use another code
            </Button>
            <Button type="submit" disabled={!canSubmit}>
              {fetcher.state === 'idle' ? 'Enroll' : 'Enrolling…'}
            </Button>
          </div>
        </fetcher.Form>
      </CardContent>
    </Card>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
