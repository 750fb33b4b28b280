import { AccessDenied } from '~/components/error-boundary'

export default function NoAccess() {
  return <AccessDenied />
}
