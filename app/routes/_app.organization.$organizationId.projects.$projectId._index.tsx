import { redirect, type LoaderFunctionArgs } from '@remix-run/node'

/** A project without a tab opens its agents. */
export const loader = ({ params }: LoaderFunctionArgs) => redirect(`/organization/${params.organizationId}/projects/${params.projectId}/agents`)
