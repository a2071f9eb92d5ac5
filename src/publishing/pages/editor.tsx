/**
 * The editor's page: the bar every screen shares, then the room Decap draws the editor in
 * (`#nc-root`, which Decap takes when it finds it), its configuration, and the scripts in the
 * order they must run: ours that keeps Decap from starting itself, Decap's bundle, then the
 * editor's own bundle (which starts it), and manage.js for the bar's language and sign-out.
 * `/_publishing/editor.css` styles the bar and the room; Decap styles the rest itself.
 */
import { renderToStaticMarkup } from 'react-dom/server'
import { scriptJson } from '../../shared/html'
import { ServiceHead } from '../../shared/service-head'
import type { EditorLanguage } from '../people/roles'
import { mayWrite } from '../workflow/four-eyes'
import { Bar, MANAGE_SCRIPT, SERVICE_FONT, type Viewer } from './screen'
import { BAR_TEXTS, PAGE_TEXTS } from './texts'

/** Where Decap draws the editor (it uses an element of this id when there is one). */
export const EDITOR_ROOT = 'nc-root'

export interface EditorPageProps {
  language: EditorLanguage
  viewer: Viewer
  /** Decap's configuration for this person (editor/config.ts). */
  config: unknown
  /** The editor's bundle: its script, and the site's stylesheets its preview uses. */
  bundle: { script: string; styles: readonly string[] }
}

function EditorScreen({ language, viewer, config, bundle }: EditorPageProps) {
  return (
    <html lang={language}>
      <ServiceHead
        title={`${PAGE_TEXTS[language].editorTitle} · Lumora Bank`}
        stylesheet="/_publishing/editor.css"
        font={SERVICE_FONT}
      >
        {bundle.styles.map((href) => (
          <meta key={href} name="cms-preview-style" content={href} />
        ))}
      </ServiceHead>
      {/* Someone who may not write reads entries only (editor/browser/read-only.ts). */}
      <body className={mayWrite(viewer.person).allowed ? 'editor-page' : 'editor-page read-only'}>
        <a className="skip" href={`#${EDITOR_ROOT}`}>
          {BAR_TEXTS[language].skip}
        </a>
        <Bar language={language} viewer={viewer} place="editor" />
        <div id={EDITOR_ROOT} tabIndex={-1} />
        <script
          type="application/json"
          id="cms-config"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON escaped for a script element
          dangerouslySetInnerHTML={{ __html: scriptJson(config) }}
        />
        <script src="/_publishing/editor-start.js" />
        <script src="/admin/decap-cms.js" />
        <script type="module" src={bundle.script} />
        <script src={MANAGE_SCRIPT} defer />
      </body>
    </html>
  )
}

/** The HTML of the editor's page, as its route sends it. */
export function editorPage(props: EditorPageProps): string {
  return `<!doctype html>\n${renderToStaticMarkup(<EditorScreen {...props} />)}\n`
}
