/**
 * The keys that open the site search: `/` and Ctrl+K (⌘K), anywhere but in a text field. Its
 * own small module: the entry holds such a key until the search's code is there.
 */

/** True where a key is text the visitor is typing. */
export function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable ||
      target.closest('input, textarea, select, [contenteditable]') !== null)
  )
}

/** True for the keys that open the search. */
export function isSearchShortcut(
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>,
): boolean {
  if (event.altKey) return false
  // `/` is Shift+7 on German keyboards: Shift may be down.
  if (event.key === '/') return !event.ctrlKey && !event.metaKey
  return (
    (event.key === 'k' || event.key === 'K') && (event.ctrlKey || event.metaKey) && !event.shiftKey
  )
}
