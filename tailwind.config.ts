import type { Config } from 'tailwindcss'
import palette from 'tailwindcss/colors'
import plugin from 'tailwindcss/plugin'

/**
 * Dark mode (decision 040): every colour is a CSS variable, so one set of classes serves both
 * themes. The semantic colours (background, card, ...) get dark values in app/tailwind.css; the
 * tints the components use for states (red-50 backgrounds, emerald-700 text, ...) are mirrored
 * here: in the dark theme shade 50 takes shade 950's value, 100 takes 900's and so on, so a light
 * tint becomes a dark one and dark text becomes light, with the same contrast.
 */
const TINTS = ['slate', 'gray', 'red', 'orange', 'amber', 'yellow', 'green', 'emerald', 'sky', 'blue', 'violet'] as const
const SHADES = ['50', '100', '200', '300', '400', '500', '600', '700', '800', '900', '950'] as const
/** the dark theme's shade for each shade: light tints and dark text swap, the saturated middle stays */
const DARK_SHADE: Record<(typeof SHADES)[number], (typeof SHADES)[number]> = {
  '50': '950', '100': '900', '200': '800', '300': '700', '400': '400', '500': '500',
  '600': '500', '700': '300', '800': '200', '900': '100', '950': '50',
}

const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(' ')
const tintVariables = (shadeOf: (shade: (typeof SHADES)[number]) => (typeof SHADES)[number]) =>
  Object.fromEntries(TINTS.flatMap((tint) => SHADES.map((shade) => [`--tint-${tint}-${shade}`, rgb(palette[tint][shadeOf(shade)])])))

/** The dark theme's semantic colours (the light ones are in app/tailwind.css), as HSL triplets. */
const DARK_THEME = {
  colorScheme: 'dark',
  '--background': '222 30% 8%',
  '--foreground': '213 31% 91%',
  '--card': '222 28% 12%',
  '--card-foreground': '213 31% 91%',
  '--primary': '217 91% 60%',
  '--primary-foreground': '222 47% 11%',
  '--secondary': '217 24% 20%',
  '--secondary-foreground': '213 31% 91%',
  '--muted': '217 24% 17%',
  '--muted-foreground': '215 20% 68%',
  '--accent': '217 24% 20%',
  '--accent-foreground': '213 31% 91%',
  '--destructive': '0 72% 51%',
  '--destructive-foreground': '210 40% 98%',
  '--border': '217 20% 24%',
  '--input': '217 20% 30%',
  '--ring': '217 91% 60%',
  '--sidebar': '224 35% 6%',
  '--sidebar-foreground': '214 32% 91%',
  '--sidebar-muted': '217 19% 60%',
}

/** The selectors of the dark theme: chosen explicitly (class on <html>), or the system's when none is chosen. */
const DARK_SELECTOR = ':root.dark'
const SYSTEM_DARK_SELECTOR = ':root:not(.light)'

export default {
  content: ['./app/**/{**,.client,.server}/**/*.{js,jsx,ts,tsx}'],
  darkMode: ['variant', ['&:is(.dark *)', '@media (prefers-color-scheme: dark) { &:not(.light *) }']],
  theme: {
    extend: {
      colors: {
        border: 'hsl(var(--border))',
        input: 'hsl(var(--input))',
        ring: 'hsl(var(--ring))',
        background: 'hsl(var(--background))',
        foreground: 'hsl(var(--foreground))',
        primary: { DEFAULT: 'hsl(var(--primary))', foreground: 'hsl(var(--primary-foreground))' },
        secondary: { DEFAULT: 'hsl(var(--secondary))', foreground: 'hsl(var(--secondary-foreground))' },
        destructive: { DEFAULT: 'hsl(var(--destructive))', foreground: 'hsl(var(--destructive-foreground))' },
        muted: { DEFAULT: 'hsl(var(--muted))', foreground: 'hsl(var(--muted-foreground))' },
        accent: { DEFAULT: 'hsl(var(--accent))', foreground: 'hsl(var(--accent-foreground))' },
        card: { DEFAULT: 'hsl(var(--card))', foreground: 'hsl(var(--card-foreground))' },
        sidebar: { DEFAULT: 'hsl(var(--sidebar))', foreground: 'hsl(var(--sidebar-foreground))', muted: 'hsl(var(--sidebar-muted))' },
        ...Object.fromEntries(TINTS.map((tint) => [tint, Object.fromEntries(SHADES.map((shade) => [shade, `rgb(var(--tint-${tint}-${shade}) / <alpha-value>)`]))])),
      },
      borderRadius: { lg: '0.5rem', md: '0.375rem', sm: '0.25rem' },
      fontFamily: {
        sans: ['Inter', 'ui-sans-serif', 'system-ui', '-apple-system', 'Segoe UI', 'Roboto', 'sans-serif'],
      },
    },
  },
  plugins: [
    plugin(({ addBase }) => {
      const dark = { ...DARK_THEME, ...tintVariables((shade) => DARK_SHADE[shade]) }
      addBase({
        ':root': tintVariables((shade) => shade),
        [DARK_SELECTOR]: dark,
        '@media (prefers-color-scheme: dark)': { [SYSTEM_DARK_SELECTOR]: dark },
      })
    }),
  ],
} satisfies Config
