import { redirect, type LoaderFunctionArgs } from '@remix-run/node'

/** Alias: /organization/{id}/project/... is /organization/{id}/projects/... */
export const loader = ({ params, request }: LoaderFunctionArgs) => {
  const rest = params['*'] ? `/${params['*']}` : ''
  return redirect(`/organization/${params.organizationId}/projects${rest}${new URL(request.url).search}`)
}
