/**
 * The editor's page: Decap's bundle, then ours, which starts it. Decap draws the whole page, so
 * this is a bare document (the other screens are React, `screen.tsx`).
 */

import { escapeHtml, scriptJson } from '../../shared/html'
import { htmlPage } from '../../shared/html-page'
import type { EditorLanguage } from '../people/roles'
import { PAGE_TEXTS } from './texts'

/** The editor's page: Decap's bundle, then ours (bundled by the service), which starts it. */
export function editorPage(
  language: EditorLanguage,
  config: unknown,
  bundle: { script: string; styles: string[] },
): string {
  return htmlPage({
    language,
    title: `${PAGE_TEXTS[language].editorTitle} · Lumora Bank`,
    head: [
      '<link rel="icon" href="/icon.svg" type="image/svg+xml">',
      bundle.styles
        .map((href) => `<meta name="cms-preview-style" content="${escapeHtml(href)}">`)
        .join('\n'),
    ],
    body: `<script type="application/json" id="cms-config">${scriptJson(config)}</script>
<script src="/_publishing/editor-start.js"></script>
<script src="/admin/decap-cms.js"></script>
<script type="module" src="${escapeHtml(bundle.script)}"></script>`,
  })
}
