/**
 * Before Decap's bundle: it must not start itself, and the preview module must leave starting
 * to the editor's entry (which registers the service's backend first).
 */

declare global {
  interface Window {
    CMS_MANUAL_INIT?: boolean
    CMS_EDITOR_ENTRY?: boolean
  }
}

window.CMS_MANUAL_INIT = true
window.CMS_EDITOR_ENTRY = true

export {}
