import { type LoaderFunctionArgs } from '@remix-run/node'
import { useNavigate } from '@remix-run/react'
import { useState } from 'react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { toastError } from '~/components/inline-edit-field'
import { PageHeader } from '~/components/page-header'
import { Button } from '~/components/ui/button'
import { Card, CardContent } from '~/components/ui/card'
import { Field, issueFor } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { ApiError, callApi } from '~/utils/api-client'
import { requireUser } from '~/utils/auth.server'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request)
  return null
}

export const handle = { breadcrumb: () => ({ label: 'Create Organization', to: '.' }) }

/** New organization: the current user becomes its owner; on success the user goes to it. */
export default function CreateOrganization() {
  const navigate = useNavigate()
  const [name, setName] = useState('')
  const [issues, setIssues] = useState<{ path: string; message: string }[]>([])
  const [busy, setBusy] = useState(false)
  const create = async () => {
    setBusy(true)
    setIssues([])
    try {
      const { organizationId } = await callApi<{ organizationId: string }>('organization/create', { name })
      navigate(`/organization/${organizationId}`)
    } catch (e) {
      if (e instanceof ApiError && e.issues.length) setIssues(e.issues)
      else toastError(e)
      setBusy(false)
    }
  }
  // Field errors of name, description and general ('') all show under the one field.
  const error = issueFor(issues, 'name') ?? issueFor(issues, 'description') ?? issueFor(issues, '')
  return (
    <div className="max-w-lg">
      <PageHeader title="Create Organization" subtitle="You become the owner and its Organization Admin." />
      <Card>
        <CardContent className="py-4">
          <form
            className="flex flex-col gap-4"
            onSubmit={(e) => {
              e.preventDefault()
              void create()
            }}
          >
            <Field label="Name" error={error}>
              {(props) => <Input {...props} name="name" value={name} onChange={(e) => setName(e.target.value)} autoFocus placeholder="e.g. Arena Productions" />}
            </Field>
            <div className="flex justify-end gap-2">
              <Button type="button" variant="outline" onClick={() => navigate(-1)}>
                Cancel
              </Button>
              <Button type="submit" disabled={busy}>
                Create
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
