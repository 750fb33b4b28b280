import { useFetcher } from '@remix-run/react'
import { Monitor, Moon, Sun } from 'lucide-react'
import { useTheme } from '~/root'
import { isTheme, THEME_ACTION, THEMES, type Theme } from '~/utils/theme'
import { cn } from '~/utils/cn'
import { Button, buttonVariants } from '../ui/button'
import { useAfterHydration } from '../ui/after-hydration'
import { plainIcon } from './plain-icon'
import { DropdownMenu, DropdownMenuContent, DropdownMenuLabel, DropdownMenuRadioGroup, DropdownMenuRadioItem, DropdownMenuTrigger } from '../ui/dropdown-menu'

const LABELS: Record<Theme, string> = { system: 'System', light: 'Light', dark: 'Dark' }
const ICONS: Record<Theme, typeof Sun> = { system: Monitor, light: Sun, dark: Moon }
/** The class text <Button variant="ghost" size="icon"> renders, worked out once for the server's closed trigger. */
const CLOSED_TRIGGER_CLASS = cn(buttonVariants({ variant: 'ghost', size: 'icon' }))

/** The header's theme menu: System (the device's setting), Light or Dark, saved in a cookie. */
export function ThemeMenu() {
  const theme = useTheme()
  const fetcher = useFetcher({ key: 'theme' })
  const Icon = ICONS[theme]
  // the server renders the closed trigger only; the menu comes with the first render after hydration
  const live = useAfterHydration()
  if (!live) {
    return (
      <button className={CLOSED_TRIGGER_CLASS} aria-label={`Theme: ${LABELS[theme]}`} aria-haspopup="menu" aria-expanded={false} data-state="closed">
        {plainIcon(Icon)}
      </button>
    )
  }
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={`Theme: ${LABELS[theme]}`}>
          <Icon />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>Theme</DropdownMenuLabel>
        <DropdownMenuRadioGroup value={theme} onValueChange={(value) => isTheme(value) && fetcher.submit({ theme: value }, { method: 'post', action: THEME_ACTION })}>
          {THEMES.map((t) => {
            const ItemIcon = ICONS[t]
            return (
              <DropdownMenuRadioItem key={t} value={t}>
                <ItemIcon /> {LABELS[t]}
              </DropdownMenuRadioItem>
            )
          })}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
