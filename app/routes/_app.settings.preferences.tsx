import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Combobox } from '~/components/ui/combobox'
import { Field } from '~/components/ui/field'
import { listMemberOrganizations } from '~/domain/organizations/membership.server'
import { requireUser } from '~/utils/auth.server'
import { useApiMutation } from '~/utils/use-api-mutation'

export async function loader({ request }: LoaderFunctionArgs) {
  const { user, actor } = await requireUser(request)
  return { organizations: await listMemberOrganizations(actor), defaultOrganizationId: user.preferenceDefaultOrg ?? '' }
}

export const meta: MetaFunction = () => [{ title: 'Preferences · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'Preferences', to: '.' }) }

const NONE = { value: '', label: '(None)' }

/** User settings, Preferences: the default organization (preferenceDefaultOrg) that /organization opens. */
export default function PreferencesTab() {
  const { organizations, defaultOrganizationId } = useLoaderData<typeof loader>()
  const { run } = useApiMutation()
  const options = [NONE, ...organizations.map((o) => ({ value: o.id, label: o.name }))]
  return (
    <Card className="max-w-3xl">
      <CardHeader>
        <CardTitle>Default organization</CardTitle>
        <CardDescription>Opened when you go to Organizations. Without one you see the list of your organizations.</CardDescription>
      </CardHeader>
      <CardContent>
        <Field label="Default organization" className="max-w-sm">
          {(p) => (
            <Combobox
              {...p}
              options={options}
              value={{ kind: 'option', value: options.some((o) => o.value === defaultOrganizationId) ? defaultOrganizationId : '' }}
              placeholder="Search organizations"
              onChange={(choice) => {
                if (choice?.kind !== 'option') return
                run('user/updateProfile', { preferenceDefaultOrg: choice.value || null }, { success: 'Default organization saved' })
              }}
            />
          )}
        </Field>
      </CardContent>
    </Card>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
