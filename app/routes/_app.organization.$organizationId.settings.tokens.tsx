import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { CreateTokenDialog, NoTokens, TokenTable, TokensCardHeader, tokenSpecFromForm, useFreshTokenDialog } from '~/components/tokens/token-ui'
import { Card } from '~/components/ui/card'
import { createServiceToken, listServiceTokens, revokeServiceToken } from '~/domain/auth/service-tokens.server'
import { invalid } from '~/domain/errors'
import { requireUser } from '~/utils/auth.server'
import { domainCall, formAction } from '~/utils/errors.server'
import { readFormData } from '~/utils/form.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const tokens = await domainCall(() => listServiceTokens(actor, params.organizationId!))
  return { tokens }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { actor } = await requireUser(request)
  const organizationId = params.organizationId!
  const form = await readFormData(request)
  const intent = form.get('intent')
  if (intent === 'create') return formAction(() => createServiceToken(actor, organizationId, tokenSpecFromForm(form)))
  if (intent === 'revoke') return formAction(() => revokeServiceToken(actor, organizationId, String(form.get('id') ?? '')), 'Token revoked')
  return formAction(async () => {
    throw invalid('Unknown action')
  })
}

export const meta: MetaFunction = () => [{ title: 'Service Tokens · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'Service Tokens', to: '.' }) }

/** Organization settings, Service Tokens: tokens for CI that belong to the organization, not to a person. */
export default function ServiceTokensTab() {
  const { tokens } = useLoaderData<typeof loader>()
  const dialog = useFreshTokenDialog()
  return (
    <Card>
      <TokensCardHeader title="Service Tokens" onNew={dialog.openNew}>
        Tokens for CI and automation. They belong to the organization, act only in it with the permissions chosen here, and keep working when
        the person who created them leaves.
      </TokensCardHeader>
      {tokens.length === 0 ? <NoTokens title="No service tokens" text="Create a service token for a CI pipeline or another system that calls the API." /> : <TokenTable tokens={tokens} label="Service Tokens" showCreator />}
      <CreateTokenDialog
        key={dialog.key}
        open={dialog.open}
        onOpenChange={dialog.setOpen}
        description="A service token gets at most the organization permissions you hold; never deleting or transferring the organization."
      />
    </Card>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
