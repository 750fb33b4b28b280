import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { invalid } from '~/domain/errors'
import { deleteSavedView, listSavedViews, saveView } from '~/domain/saved-views/saved-views.server'
import { requireUser } from '~/utils/auth.server'
import { domainCall, formAction } from '~/utils/errors.server'
import { readForm } from '~/utils/form.server'

/** The signed-in person's saved views of an organization's agents list (GET ?organizationId=), and saving or deleting one (POST). */
export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const organizationId = new URL(request.url).searchParams.get('organizationId') ?? ''
  return { views: await domainCall(() => listSavedViews(actor, organizationId)) }
}

const intentSchema = z.enum(['save', 'delete'])

export async function action({ request }: ActionFunctionArgs) {
  const { actor } = await requireUser(request)
  const form = await readForm(request)
  const organizationId = form.organizationId ?? ''
  const parsed = intentSchema.safeParse(form.intent)
  const intent = parsed.success ? parsed.data : null
  return formAction(async () => {
    if (intent === 'save') return saveView(actor, organizationId, { name: form.name, query: form.query })
    if (intent === 'delete') return deleteSavedView(actor, organizationId, form.id ?? '')
    throw invalid('Unknown saved-view action')
  }, intent === 'save' ? 'View saved' : intent === 'delete' ? 'View deleted' : undefined)
}
