import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { CreateTokenDialog, NoTokens, TokenTable, TokensCardHeader, tokenSpecFromForm, useFreshTokenDialog } from '~/components/tokens/token-ui'
import { Card } from '~/components/ui/card'
import { DateTime } from '~/components/ui/date-time'
import { createApiToken, listApiTokens, listEndedApiTokens, revokeApiToken } from '~/domain/auth/api-tokens.server'
import { invalid } from '~/domain/errors'
import { requireUser } from '~/utils/auth.server'
import { domainCall, formAction } from '~/utils/errors.server'
import { readFormData } from '~/utils/form.server'

export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const [tokens, ended] = await Promise.all([domainCall(() => listApiTokens(actor)), domainCall(() => listEndedApiTokens(actor))])
  return { tokens, ended }
}

export async function action({ request }: ActionFunctionArgs) {
  const { actor } = await requireUser(request)
  const form = await readFormData(request)
  const intent = form.get('intent')
  if (intent === 'create') return formAction(() => createApiToken(actor, tokenSpecFromForm(form)))
  if (intent === 'revoke') return formAction(() => revokeApiToken(actor, String(form.get('id') ?? '')), 'Token revoked')
  return formAction(async () => {
    throw invalid('Unknown action')
  })
}

export const meta: MetaFunction = () => [{ title: 'API Tokens · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'API Tokens', to: '.' }) }

/** User settings, API Tokens: personal tokens for the CLI and scripts (list, create once-shown, revoke). */
export default function ApiTokensTab() {
  const { tokens, ended } = useLoaderData<typeof loader>()
  const dialog = useFreshTokenDialog()

  return (
    <Card>
      <TokensCardHeader title="API Tokens" onNew={dialog.openNew}>
        Personal tokens let the <code className="font-mono">pixelfleet</code> CLI and your scripts act as you, within the token&apos;s scope. Treat them like passwords.
      </TokensCardHeader>
      {tokens.length === 0 ? (
        <NoTokens text="Create one here, or run `pixelfleet login`, which creates a token for the CLI." />
      ) : (
        <TokenTable tokens={tokens} label="API Tokens" />
      )}
      {ended.length > 0 ? (
        <div className="border-t">
          <h3 className="px-4 pb-1 pt-3 text-xs font-semibold uppercase tracking-wide text-muted-foreground">Ended tokens</h3>
          <table className="w-full text-sm" aria-label="Ended API Tokens">
            <tbody>
              {ended.map((t) => (
                <tr key={t.id} className="border-b text-muted-foreground last:border-0">
                  <td className="px-3 py-2">{t.name}</td>
                  <td className="px-3 py-2 font-mono text-xs">{t.prefix}…</td>
                  <td className="px-3 py-2" data-testid="token-ended">
                    Ended: {t.endedReason}, <DateTime value={t.endedAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <CreateTokenDialog
        key={dialog.key}
        open={dialog.open}
        onOpenChange={dialog.setOpen}
        description="Name the token after where it is used, and give it no more scope and time than it needs."
      />
    </Card>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
