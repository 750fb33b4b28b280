import { data, type ActionFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { getConfig } from '~/utils/env.server'
import { badRequest, readForm } from '~/utils/form.server'
import { THEMES } from '~/utils/theme'
import { themeCookie } from '~/utils/theme.server'

const themeForm = z.object({ theme: z.enum(THEMES, { message: `theme must be one of ${THEMES.join(', ')}` }) })

/**
 * Saves the colour theme of this browser (POST theme=system|light|dark) in a cookie that the root
 * loader reads, so the next page is rendered in it without a flash (decision 040).
 */
export async function action({ request }: ActionFunctionArgs) {
  const parsed = themeForm.safeParse(await readForm(request))
  if (!parsed.success) return badRequest(parsed.error.issues[0].message)
  return data({ ok: true, theme: parsed.data.theme }, { headers: { 'Set-Cookie': themeCookie(parsed.data.theme, getConfig().publicUrl.startsWith('https:')) } })
}
