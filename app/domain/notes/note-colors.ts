/** Note colours (spec 02 section 9); blue is the default. Shared by the domain and the UI. */
export const NOTE_COLORS = ['yellow', 'blue', 'red', 'green', 'orange'] as const
export type NoteColor = (typeof NOTE_COLORS)[number]
export const DEFAULT_NOTE_COLOR: NoteColor = 'blue'
