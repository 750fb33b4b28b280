import { Badge } from '~/components/ui/badge'

/** The 'Owner' and 'You' tags next to a person's name, alike on every screen that lists people. */
export function MemberTags({ isOwner, isYou = false }: { isOwner: boolean; isYou?: boolean }) {
  return (
    <>
      {isOwner ? <Badge variant="warning">Owner</Badge> : null}
      {isYou ? <Badge>You</Badge> : null}
    </>
  )
}
