/**
 * The publishing service's own pages (sign-in, invitation, the editor's frame), in English and
 * German (texts.ts). Their stylesheet and scripts are files of their own (`src/publishing/
 * browser/`, served under `/_publishing/`): the service's policy allows no inline script.
 */

import { escapeHtml, scriptJson } from '../../shared/html'
import { htmlPage } from '../../shared/html-page'
import type { EditorLanguage } from '../people/roles'
import { PAGE_TEXTS } from './texts'

/** A page of the service: its stylesheet, the heading and text in `main`, then its scripts. */
export function layout(
  language: EditorLanguage,
  title: string,
  body: string,
  scripts: string[] = [],
) {
  return htmlPage({
    language,
    title: `${title} · Lumora Bank`,
    head: [
      '<link rel="icon" href="/icon.svg" type="image/svg+xml">',
      '<link rel="stylesheet" href="/_publishing/service.css">',
    ],
    body: `<main>
${body}
</main>
${scripts.map((src) => `<script src="${src}" defer></script>`).join('\n')}`,
  })
}

const SIGN_IN_SCRIPTS = ['/_publishing/webauthn.js', '/_publishing/sign-in.js']

export function signInPage(
  language: EditorLanguage,
  options: {
    provider: boolean
    passkeys: boolean
    signedIn?: {
      name: string
      email: string
      /** Whether they get the e-mails about drafts (notices), and how many wait for them. */
      notices?: boolean
      waiting?: number
    }
  },
): string {
  const t = PAGE_TEXTS[language]
  if (options.signedIn) {
    const { notices = true, waiting = 0 } = options.signedIn
    return layout(
      language,
      t.signInTitle,
      `<h1>${escapeHtml(t.signInTitle)}</h1>
<p>${escapeHtml(t.signedInAs)} ${escapeHtml(options.signedIn.name)} (${escapeHtml(options.signedIn.email)}).</p>
<a class="button" href="/admin/">${escapeHtml(t.openEditor)}</a>
<p><a href="/me/sign-in">${escapeHtml(t.yourSignIn)}</a></p>
${waiting > 0 ? `<p><a href="/changes">${escapeHtml(t.changesWaiting(waiting))}</a></p>` : ''}
<form data-action="/api/me/language" data-reload><label for="language">${escapeHtml(t.language)}</label>
<select id="language" name="language"><option value="en"${language === 'en' ? ' selected' : ''}>English</option><option value="de"${language === 'de' ? ' selected' : ''}>Deutsch</option></select>
<button class="secondary" type="submit" disabled>${escapeHtml(t.saveLanguage)}</button></form>
<form data-action="/api/me/notices" data-reload><fieldset><legend>${escapeHtml(t.notices)}</legend>
<label><input type="radio" name="notices" value="on"${notices ? ' checked' : ''}> ${escapeHtml(t.noticesOn)}</label>
<label><input type="radio" name="notices" value="off"${notices ? '' : ' checked'}> ${escapeHtml(t.noticesOff)}</label></fieldset>
<button class="secondary" type="submit" disabled>${escapeHtml(t.saveNotices)}</button></form>
<form data-action="/sign-out" data-reload><button class="secondary" type="submit" disabled>${escapeHtml(t.signOut)}</button></form>
<div role="status" id="status"></div>`,
      ['/_publishing/manage.js'],
    )
  }
  return layout(
    language,
    t.signInTitle,
    `<h1>${escapeHtml(t.signInTitle)}</h1>
<p>${escapeHtml(t.signInIntro)}</p>
${options.passkeys ? `<button type="button" id="passkey-sign-in">${escapeHtml(t.signInPasskey)}</button>` : ''}
${options.provider ? `<button type="button" id="provider-sign-in"${options.passkeys ? ' class="secondary"' : ''}>${escapeHtml(t.signInProvider)}</button>` : ''}
<div role="status" id="status" data-waiting="${escapeHtml(t.waiting)}" data-unsupported="${escapeHtml(t.noWebAuthn)}"></div>`,
    SIGN_IN_SCRIPTS,
  )
}

/** Where the identity provider sends the person back: the page finishes the sign-in by POST. */
export function providerReturnPage(language: EditorLanguage): string {
  const t = PAGE_TEXTS[language]
  return layout(
    language,
    t.signInTitle,
    `<h1 id="provider-return">${escapeHtml(t.signInTitle)}</h1>
<div role="status" id="status">${escapeHtml(t.waiting)}</div>`,
    SIGN_IN_SCRIPTS,
  )
}

export function invitationPage(language: EditorLanguage): string {
  const t = PAGE_TEXTS[language]
  return layout(
    language,
    t.invitationTitle,
    `<h1>${escapeHtml(t.invitationTitle)}</h1>
<p id="invitation-intro">${escapeHtml(t.invitationIntro)}</p>
<p id="reset-intro" hidden>${escapeHtml(t.resetIntro)}</p>
<form id="invitation">
<div id="name-field">
<label for="name">${escapeHtml(t.name)}</label>
<input id="name" name="name" autocomplete="name" required maxlength="200">
</div>
<div id="email-field" hidden>
<label for="email">${escapeHtml(t.email)}</label>
<input id="email" name="email" type="email" autocomplete="email" maxlength="254">
</div>
<label for="language">${escapeHtml(t.language)}</label>
<select id="language" name="language">
<option value="en"${language === 'en' ? ' selected' : ''}>English</option>
<option value="de"${language === 'de' ? ' selected' : ''}>Deutsch</option>
</select>
<button type="submit">${escapeHtml(t.createPasskey)}</button>
</form>
<div role="status" id="status" data-waiting="${escapeHtml(t.waiting)}" data-unsupported="${escapeHtml(t.noWebAuthn)}"></div>`,
    SIGN_IN_SCRIPTS,
  )
}

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
