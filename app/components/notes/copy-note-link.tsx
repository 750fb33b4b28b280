import { Link2 } from 'lucide-react'
import { toast } from 'sonner'
import { Button } from '~/components/ui/button'

/** The shareable address of a note: the organization's Notes page with that note opened. */
export const noteHref = (organizationId: string, noteId: string) => `/organization/${organizationId}/notes/${noteId}`

/** Copies a note's full link to the clipboard and confirms with a toast. */
export function CopyNoteLinkButton({ organizationId, noteId, compact }: { organizationId: string; noteId: string; compact?: boolean }) {
  const copy = async () => {
    const link = `${window.location.origin}${noteHref(organizationId, noteId)}`
    try {
      await navigator.clipboard.writeText(link)
      toast.success('Note link copied')
    } catch {
      // clipboard refused (permissions, insecure origin): show the link so it can be copied by hand
      toast.error(`Could not copy the link: ${link}`)
    }
  }
  return (
    <Button variant="ghost" size={compact ? 'icon' : 'sm'} className={compact ? 'size-7' : undefined} onClick={() => void copy()} title="Copy link">
      <Link2 />
      {compact ? <span className="sr-only">Copy link</span> : 'Copy link'}
    </Button>
  )
}
