import { useEffect, useState } from 'react'
import { cn } from '~/utils/cn'

type SiteMessage = { id: string; text: string; type: string; starts: string; ends: string }

const tone: Record<string, string> = {
  warning: 'bg-amber-100 text-amber-900 border-amber-200',
  error: 'bg-red-100 text-red-900 border-red-200',
  info: 'bg-blue-100 text-blue-900 border-blue-200',
  success: 'bg-emerald-100 text-emerald-900 border-emerald-200',
}

/** Site-wide messages, shown while now lies between their starts and ends (re-checked every minute). */
export function SiteBanner({ messages }: { messages: SiteMessage[] }) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 60_000)
    return () => clearInterval(id)
  }, [])
  const visible = messages.filter((m) => Date.parse(m.starts) <= now && now <= Date.parse(m.ends))
  if (visible.length === 0) return null
  return (
    <div role="status">
      {visible.map((m) => (
        <div key={m.id} className={cn('border-b px-4 py-1.5 text-center text-sm', tone[m.type] ?? tone.info)}>
          {m.text}
        </div>
      ))}
    </div>
  )
}
