/** The repeat intervals a subscription offers (decision 048), shared by the server and the settings page. 0 = never. */
export const REPEAT_CHOICES_MINUTES = [0, 60, 240, 720, 1440] as const

export const REPEAT_LABELS: Record<number, string> = { 0: 'Never', 60: 'Every hour', 240: 'Every 4 hours', 720: 'Every 12 hours', 1440: 'Every 24 hours' }
