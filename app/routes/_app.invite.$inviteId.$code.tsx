import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData, useNavigate, useParams } from '@remix-run/react'
import { Building2, Check, X } from 'lucide-react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { DomainError } from '~/domain/errors'
import { getInviteForRecipient } from '~/domain/invites/invites.server'
import { requireUser } from '~/utils/auth.server'
import { useApiMutation } from '~/utils/use-api-mutation'

/**
 * The invite e-mail's link. The route guard sends a signed-out visitor to /login?redirect=... where
 * they sign in or create an account, then come back here to accept or decline.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, actor } = await requireUser(request)
  try {
    return { invite: await getInviteForRecipient(actor, params.inviteId ?? '', params.code ?? ''), problem: null, email: user.email }
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    const problem =
      error.code === 'mvr-auth/mismatchemail'
        ? `This invitation was sent to another e-mail address. You are signed in as ${user.email}; sign in with the invited address to accept it.`
        : error.message
    return { invite: null, problem, email: user.email }
  }
}

export const meta: MetaFunction = () => [{ title: 'Invitation · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'Invitation', to: '.' }) }

export default function InvitePage() {
  const { invite, problem } = useLoaderData<typeof loader>()
  const { inviteId, code } = useParams()
  const { run, anyPending } = useApiMutation()
  const navigate = useNavigate()

  const answer = async (accept: boolean) => {
    const result = await run<{ organizationId?: string }>(accept ? 'invite/accept' : 'invite/decline', { inviteId, code }, {
      success: accept ? `You joined ${invite?.organizationName}` : 'Invitation declined',
    })
    if (result) navigate(accept && result.organizationId ? `/organization/${result.organizationId}` : '/')
  }

  return (
    <div className="mx-auto mt-10 max-w-lg">
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Building2 className="size-4" /> Invitation
          </CardTitle>
          {invite ? <CardDescription>You were invited to join an organization on Pixelfleet.</CardDescription> : null}
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {invite ? (
            <>
              <dl className="grid grid-cols-[8rem_1fr] gap-y-2 text-sm">
                <dt className="text-muted-foreground">Organization</dt>
                <dd className="font-medium">{invite.organizationName}</dd>
                <dt className="text-muted-foreground">Role</dt>
                <dd>{invite.roleName}</dd>
                {invite.projects.length > 0 ? (
                  <>
                    <dt className="text-muted-foreground">Projects</dt>
                    <dd>
                      {invite.projects.map((p) => p.name).join(', ')} <span className="text-muted-foreground">({invite.projectRoleName})</span>
                    </dd>
                  </>
                ) : null}
                <dt className="text-muted-foreground">Sent to</dt>
                <dd>{invite.recipient}</dd>
              </dl>
              <div className="flex justify-end gap-2">
                <Button variant="outline" disabled={anyPending} onClick={() => void answer(false)}>
                  <X /> Decline
                </Button>
                <Button disabled={anyPending} onClick={() => void answer(true)}>
                  <Check /> Accept
                </Button>
              </div>
            </>
          ) : (
            <>
              <Alert type="warning" title="This invitation cannot be used">
                {problem}
              </Alert>
              <Button asChild variant="outline" className="self-end">
                <Link to="/">Go to home page</Link>
              </Button>
            </>
          )}
        </CardContent>
      </Card>
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
