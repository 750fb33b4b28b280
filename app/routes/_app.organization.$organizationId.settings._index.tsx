import { redirect, type LoaderFunctionArgs } from '@remix-run/node'

/** A missing settings tab opens General. */
export const loader = ({ params }: LoaderFunctionArgs) => redirect(`/organization/${params.organizationId}/settings/general`)
