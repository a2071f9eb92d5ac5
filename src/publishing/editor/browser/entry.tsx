/**
 * The publishing service's editor (its entry, bundled by the service, ../bundle.ts): Decap with
 * the service's backend (backend.ts), the site's preview beside each entry (preview.tsx), then
 * the CMS started with the person's configuration, its dialogs and landmarks mended for
 * screen readers (dialogs.ts, landmarks.ts). The page loads start.ts before Decap's bundle,
 * which sets `CMS_MANUAL_INIT` and `CMS_EDITOR_ENTRY`.
 */
import { bankBackend } from './backend'
import { mendDialogs } from './dialogs'
import { reloadBetweenEntries } from './entry-address'
import { mendLandmarks } from './landmarks'
import { speakOurWords } from './locale'
import { editorSetup, registerPreviews } from './preview'
import { createVersions } from './versions'

const setup = editorSetup()
if (setup) {
  const { win, config } = setup
  speakOurWords(win, config)
  win.CMS.registerBackend(
    'bank',
    bankBackend(win, config, createVersions(document.documentElement.lang)),
  )
  registerPreviews(win, config)
  // The site's stylesheet, for the preview's frame only (named, not applied, by the page).
  for (const meta of document.querySelectorAll<HTMLMetaElement>('meta[name=cms-preview-style]')) {
    win.CMS.registerPreviewStyle(meta.content)
  }
  reloadBetweenEntries(win)
  mendDialogs(document.body)
  const root = document.getElementById('nc-root')
  if (root) mendLandmarks(root)
  win.CMS.init({ config })
}
