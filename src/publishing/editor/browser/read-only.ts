/**
 * The editor of a person who may not write (a reviewer, a publisher, an administrator without
 * the author role): they open entries to read them and set a draft's status, never to type.
 * Decap has no read-only editor, so the page makes one: every field of the form is read-only
 * (its inputs `readonly`, its rich text not editable, its choices and buttons disabled), the
 * Save and Delete buttons are gone (editor.css, `.read-only`, which the server sets on the
 * page's body), and a line above the form says why. The service refuses such a person's save
 * whatever the page does; this keeps the page from offering one.
 */

/** Decap's form beside the preview (EditorControlPane's ControlPaneContainer, see editor.css). */
export const FORM_PANE = '.e11hw0lx4'

const NOTES: Record<string, string> = {
  en: 'You may read this entry and set its status; only authors change it. Send a draft back with a comment on Changes.',
  de: 'Sie können diesen Eintrag lesen und seinen Status setzen; ändern können ihn nur Autorinnen und Autoren. Einen Entwurf geben Sie auf „Änderungen“ mit einem Kommentar zurück.',
}

/** Makes every field inside `root`'s form read-only, now and whenever Decap draws more. */
export function holdFields(root: HTMLElement, language: string): MutationObserver {
  const note = NOTES[language] ?? NOTES.en ?? ''
  const hold = () => {
    for (const pane of root.querySelectorAll<HTMLElement>(FORM_PANE)) {
      if (!pane.querySelector(':scope > .read-only-note')) {
        const line = pane.ownerDocument.createElement('p')
        line.className = 'read-only-note'
        line.setAttribute('role', 'note')
        line.textContent = note
        pane.prepend(line)
      }
      for (const field of pane.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(
        'input, textarea',
      )) {
        if (!field.readOnly) {
          field.readOnly = true
          field.setAttribute('aria-readonly', 'true')
        }
      }
      for (const rich of pane.querySelectorAll<HTMLElement>('[contenteditable="true"]')) {
        rich.setAttribute('contenteditable', 'false')
        rich.setAttribute('aria-readonly', 'true')
      }
      // Choices, and the buttons that add, remove, move or choose (a section's fold stays).
      for (const control of pane.querySelectorAll<HTMLButtonElement | HTMLSelectElement>(
        'select, button:not([aria-expanded])',
      )) {
        if (!control.disabled) control.disabled = true
      }
    }
  }
  const observer = new MutationObserver(hold)
  observer.observe(root, { childList: true, subtree: true })
  hold()
  return observer
}
