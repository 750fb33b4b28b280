/** Is the key press happening while the user types in a field? (Single-key shortcuts stay out of the way then.) */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  return target.isContentEditable || Boolean(target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]'))
}
