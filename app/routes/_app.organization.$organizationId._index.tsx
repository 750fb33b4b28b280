import { redirect, type LoaderFunctionArgs } from '@remix-run/node'

export const loader = ({ params }: LoaderFunctionArgs) => redirect(`/organization/${params.organizationId}/projects`)
