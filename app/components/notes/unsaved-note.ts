/** The question before an unsaved note is left (the shell's notes panel and the notes page). */
export const UNSAVED_NOTE_TEXT = 'You have unsaved note changes. Are you sure you want to leave?'
