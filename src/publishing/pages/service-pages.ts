/**
 * The publishing service's own pages (sign-in, invitation, the editor's frame) in English and
 * German, with their stylesheet and script as files: the service's policy allows no inline
 * script. Texts for people are here; the editor itself speaks Decap's locales.
 */
import { escapeHtml, scriptJson } from '../../shared/html'
import type { EditorLanguage } from '../people/roles'

export const SERVICE_CSS = `
:root{color-scheme:light;--ink:#14213d;--muted:#4a5568;--accent:#0b5fff;--line:#cbd5e1;font:16px/1.5 system-ui,sans-serif;color:var(--ink)}
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#f4f6fb}
main{background:#fff;border:1px solid var(--line);border-radius:12px;padding:2rem;max-width:44rem;width:calc(100% - 3rem);box-sizing:border-box}
h1{font-size:1.5rem;margin:0 0 1rem}
p{margin:0 0 1rem;color:var(--muted)}
label{display:block;font-weight:600;margin:1rem 0 .25rem}
input,select,textarea{font:inherit;width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #64748b;border-radius:6px}
button,.button{font:inherit;font-weight:600;margin-top:1.25rem;padding:.6rem 1.2rem;border:0;border-radius:6px;background:var(--accent);color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,a:focus-visible{outline:3px solid #ffbf47;outline-offset:2px}
[role=status]{margin-top:1rem;min-height:1.5rem;overflow-wrap:anywhere}
fieldset{border:1px solid var(--line);border-radius:6px;margin:1rem 0 0}
label:has(input[type=checkbox]){display:inline-flex;gap:.4rem;align-items:center;font-weight:400;margin:.25rem 1.25rem .25rem 0}
input[type=checkbox]{width:auto}
ul,ol{padding-left:1.25rem}
h2{font-size:1.1rem}
main{min-width:0}
code{overflow-wrap:anywhere}
img{max-width:100%;height:auto}
.table{overflow-x:auto;max-width:100%}
.table:focus-visible{outline:3px solid #ffbf47}
table{border-collapse:collapse;font-size:.875rem}
th,td{border-bottom:1px solid var(--line);padding:.35rem .5rem;text-align:left;vertical-align:top}
caption{text-align:left;font-weight:600}
.secondary{background:#fff;color:var(--accent);border:1px solid var(--accent)}
pre{overflow:auto;max-height:24rem;background:#f8fafc;border:1px solid var(--line);border-radius:6px;padding:.5rem .75rem;font-size:.8125rem;margin:.5rem 0}
pre:focus-visible{outline:3px solid #ffbf47}
details{margin:.25rem 0 .75rem}
summary{cursor:pointer;color:var(--accent)}
.why-not{font-size:.875rem}
.notice{border-left:4px solid #9a3412;background:#fff7ed;padding:.5rem 1rem;margin:0 0 1rem}
.notice p{color:#7c2d12}
.live{color:#166534}
.releases>li{margin-bottom:1.5rem}
.releases h2{font-size:1.05rem;margin:0 0 .25rem}
@media (prefers-reduced-motion:reduce){*{transition:none!important;animation:none!important}}
`

export interface PageTexts {
  signInTitle: string
  signInIntro: string
  signInPasskey: string
  signInProvider: string
  invitationTitle: string
  invitationIntro: string
  name: string
  email: string
  language: string
  createPasskey: string
  waiting: string
  noWebAuthn: string
  signedInAs: string
  openEditor: string
  signOut: string
  saveLanguage: string
}

export const PAGE_TEXTS: Record<EditorLanguage, PageTexts> = {
  en: {
    signInTitle: 'Sign in to publish',
    signInIntro: 'The editors of the Lumora Bank website sign in here.',
    signInPasskey: 'Sign in with a passkey',
    signInProvider: 'Sign in with the bank’s account',
    invitationTitle: 'Welcome',
    invitationIntro:
      'You have been invited to edit the Lumora Bank website. Create a passkey on this device to sign in from now on.',
    name: 'Your name',
    email: 'Your work e-mail address',
    language: 'Language of the editor',
    createPasskey: 'Create passkey',
    waiting: 'Follow your browser’s prompt …',
    noWebAuthn:
      'This browser has no passkeys. Use a current browser, or sign in with the bank’s account.',
    signedInAs: 'Signed in as',
    openEditor: 'Open the editor',
    signOut: 'Sign out',
    saveLanguage: 'Use this language',
  },
  de: {
    signInTitle: 'Anmelden zum Veröffentlichen',
    signInIntro:
      'Hier melden sich die Redakteurinnen und Redakteure der Website der Lumora Bank an.',
    signInPasskey: 'Mit Passkey anmelden',
    signInProvider: 'Mit dem Konto der Bank anmelden',
    invitationTitle: 'Willkommen',
    invitationIntro:
      'Sie wurden eingeladen, die Website der Lumora Bank zu bearbeiten. Legen Sie auf diesem Gerät einen Passkey an, um sich künftig damit anzumelden.',
    name: 'Ihr Name',
    email: 'Ihre geschäftliche E-Mail-Adresse',
    language: 'Sprache des Editors',
    createPasskey: 'Passkey anlegen',
    waiting: 'Folgen Sie der Aufforderung Ihres Browsers …',
    noWebAuthn:
      'Dieser Browser kennt keine Passkeys. Verwenden Sie einen aktuellen Browser oder melden Sie sich mit dem Konto der Bank an.',
    signedInAs: 'Angemeldet als',
    openEditor: 'Editor öffnen',
    signOut: 'Abmelden',
    saveLanguage: 'Diese Sprache verwenden',
  },
}

/** The language a request asks for (`Accept-Language`), German or English. */
export function languageOf(acceptLanguage: string | undefined): EditorLanguage {
  const first = (acceptLanguage ?? '').split(',')[0]?.trim().toLowerCase() ?? ''
  return first.startsWith('de') ? 'de' : 'en'
}

export function layout(
  language: EditorLanguage,
  title: string,
  body: string,
  scripts: string[] = [],
) {
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Lumora Bank</title>
<link rel="icon" href="/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/_publishing/service.css">
</head>
<body>
<main>
${body}
</main>
${scripts.map((src) => `<script src="${src}" defer></script>`).join('\n')}
</body>
</html>
`
}

const SIGN_IN_SCRIPTS = ['/_publishing/webauthn.js', '/_publishing/sign-in.js']

export function signInPage(
  language: EditorLanguage,
  options: { provider: boolean; passkeys: boolean; signedIn?: { name: string; email: string } },
): string {
  const t = PAGE_TEXTS[language]
  if (options.signedIn) {
    return layout(
      language,
      t.signInTitle,
      `<h1>${escapeHtml(t.signInTitle)}</h1>
<p>${escapeHtml(t.signedInAs)} ${escapeHtml(options.signedIn.name)} (${escapeHtml(options.signedIn.email)}).</p>
<a class="button" href="/admin/">${escapeHtml(t.openEditor)}</a>
<form data-action="/api/me/language" data-reload><label for="language">${escapeHtml(t.language)}</label>
<select id="language" name="language"><option value="en"${language === 'en' ? ' selected' : ''}>English</option><option value="de"${language === 'de' ? ' selected' : ''}>Deutsch</option></select>
<button class="secondary" type="submit" disabled>${escapeHtml(t.saveLanguage)}</button></form>
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
<p>${escapeHtml(t.invitationIntro)}</p>
<form id="invitation">
<label for="name">${escapeHtml(t.name)}</label>
<input id="name" name="name" autocomplete="name" required maxlength="200">
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

/**
 * The sign-in and invitation pages' script: the passkey ceremonies with the browser's
 * WebAuthn (through SimpleWebAuthn's browser bundle, loaded before it), each refusal shown in
 * the status line. An invitation's token is in the address's fragment, never sent in a GET.
 */
export const SIGN_IN_SCRIPT = `'use strict'
;(() => {
  const { startAuthentication, startRegistration, browserSupportsWebAuthn } = window.SimpleWebAuthnBrowser
  const status = document.getElementById('status')
  const say = (text) => { status.textContent = text }
  const post = async (url, body) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    const answer = await response.json().catch(() => ({}))
    if (!response.ok) throw new Error(answer.error || response.statusText)
    return answer
  }
  const supported = browserSupportsWebAuthn()
  const provider = document.getElementById('provider-sign-in')
  if (provider) {
    provider.addEventListener('click', async () => {
      try {
        location.assign((await post('/sign-in/provider', {})).next)
      } catch (error) {
        say(error.message)
      }
    })
  }
  const returned = document.getElementById('provider-return')
  if (returned) {
    post('/sign-in/provider/callback', { search: location.search }).then(
      (done) => location.replace(done.next),
      (error) => say(error.message),
    )
  }
  const signIn = document.getElementById('passkey-sign-in')
  if (signIn) {
    if (!supported) say(status.dataset.unsupported)
    signIn.addEventListener('click', async () => {
      try {
        say(status.dataset.waiting)
        const { ceremony, options } = await post('/sign-in/options', {})
        const response = await startAuthentication({ optionsJSON: options })
        const done = await post('/sign-in', { ceremony, response })
        location.assign(done.next)
      } catch (error) {
        say(error.message)
      }
    })
  }
  const form = document.getElementById('invitation')
  if (form) {
    const token = location.hash.slice(1)
    if (!supported) say(status.dataset.unsupported)
    post('/invitation/about', { token }).then(
      (invitation) => {
        if (invitation.first) {
          document.getElementById('email-field').hidden = false
          document.getElementById('email').required = true
        }
      },
      (error) => say(error.message),
    )
    form.addEventListener('submit', async (event) => {
      event.preventDefault()
      const fields = Object.fromEntries(new FormData(form))
      try {
        say(status.dataset.waiting)
        const { ceremony, options } = await post('/invitation/options', { token, ...fields })
        const response = await startRegistration({ optionsJSON: options })
        const done = await post('/invitation/accept', { token, ceremony, response, ...fields })
        history.replaceState(null, '', '/invitation')
        location.assign(done.next)
      } catch (error) {
        say(error.message)
      }
    })
  }
})()
`

/** The editor's page: Decap's bundle, then ours (bundled by the service), which starts it. */
export function editorPage(
  language: EditorLanguage,
  config: unknown,
  bundle: { script: string; styles: string[] },
): string {
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${language === 'de' ? 'Redaktion' : 'Editor'} · Lumora Bank</title>
<link rel="icon" href="/icon.svg" type="image/svg+xml">
${bundle.styles.map((href) => `<meta name="cms-preview-style" content="${escapeHtml(href)}">`).join('\n')}
</head>
<body>
<script type="application/json" id="cms-config">${scriptJson(config)}</script>
<script src="/_publishing/editor-start.js"></script>
<script src="/admin/decap-cms.js"></script>
<script type="module" src="${escapeHtml(bundle.script)}"></script>
</body>
</html>
`
}

/**
 * Before Decap's bundle: it must not start itself, and the preview module must leave starting
 * to the editor's entry (which registers the service's backend first).
 */
export const EDITOR_START_SCRIPT = 'window.CMS_MANUAL_INIT = true\nwindow.CMS_EDITOR_ENTRY = true\n'
