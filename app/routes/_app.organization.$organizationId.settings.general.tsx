import { type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData, useRevalidator } from '@remix-run/react'
import { toast } from 'sonner'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { InlineEditField } from '~/components/inline-edit-field'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { getOrganization } from '~/domain/organizations/organizations.server'
import { callApi } from '~/utils/api-client'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  return domainCall(() => getOrganization(actor, params.organizationId!))
}

export const handle = { breadcrumb: () => ({ label: 'General', to: '.' }) }

const SUCCESS = { name: 'Organization name updated', description: 'Organization description updated' } as const

export default function OrganizationGeneralSettings() {
  const organization = useLoaderData<typeof loader>()
  const revalidator = useRevalidator()
  const canEdit = organization.capabilities.canUpdate
  const save = (field: keyof typeof SUCCESS) => async (value: string) => {
    await callApi('organization/update', { id: organization.id, doc: { [field]: value } })
    toast.success(SUCCESS[field])
    revalidator.revalidate()
  }
  return (
    <Card className="max-w-2xl">
      <CardHeader>
        <CardTitle>General</CardTitle>
        <CardDescription>{canEdit ? 'The name and description your members see.' : 'Only members who may update the organization can change these.'}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        <InlineEditField label="Name" field="name" value={organization.name} canEdit={canEdit} onSave={save('name')} />
        <InlineEditField label="Description" field="description" value={organization.description} canEdit={canEdit} onSave={save('description')} multiline rows={3} emptyText="No description" />
        <div className="flex flex-col gap-1">
          <span className="text-xs font-medium text-foreground/80">Owner</span>
          <p className="text-sm">
            {organization.owner.name} <span className="text-muted-foreground">({organization.owner.email})</span>
          </p>
        </div>
        <div className="flex flex-col gap-1">
          <span className="text-xs font-medium text-foreground/80">Organization ID</span>
          <code className="w-fit rounded bg-muted px-1.5 py-0.5 text-xs">{organization.id}</code>
        </div>
      </CardContent>
    </Card>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
