/** The repeat intervals a subscription offers (decision 048), shared by the server and the settings page. 0 = never. */
export const REPEAT_CHOICES_MINUTES = [0, 60, 240, 720, 1440] as const

/** Short, for the settings table's narrow column; the field's label says what repeats. */
export const REPEAT_LABELS: Record<number, string> = { 0: 'Never', 60: 'Every 1 h', 240: 'Every 4 h', 720: 'Every 12 h', 1440: 'Every 24 h' }
