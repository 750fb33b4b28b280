import { Construction } from 'lucide-react'
import { EmptyState, PageHeader } from './page-header'

/** Body of a page whose route and guard exist but whose screen a later issue fills. */
export function PlaceholderPage({ title, subtitle }: { title: string; subtitle?: string }) {
  return (
    <div>
      <PageHeader title={title} subtitle={subtitle} />
      <EmptyState icon={<Construction className="size-8" />} title="Coming soon" text="This screen is part of an upcoming release." />
    </div>
  )
}
