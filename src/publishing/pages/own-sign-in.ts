/**
 * "Your sign-in" (`/me/sign-in`): the signed-in person's passkeys, each with its name, when it
 * was added and last used, to rename or remove, the form that adds another (its ceremony in
 * `/_publishing/passkeys.js`), and their other sessions, to end. It renders `OwnSignInView`
 * only, so that another renderer can take it over; the routes (`http/own-sign-in.ts`) check
 * whatever it offers again.
 */
import { escapeHtml } from '../../shared/html'
import type { EditorLanguage } from '../people/roles'
import type { PasskeyListing } from '../people/sign-in-keys'
import { berlinTime } from '../workflow/berlin-time'
import { serviceNav } from './manage'
import { layout } from './service-pages'
import { OWN_SIGN_IN_TEXTS, PAGE_TEXTS } from './texts'

export interface OwnSignInView {
  /** The person's passkeys, oldest first; `null` while the identity provider signs people in. */
  passkeys: readonly PasskeyListing[] | null
  /** Their sessions but this one. */
  otherSessions: number
  /** Drafts waiting for them, for the navigation. */
  waiting: number
}

const SCRIPTS = ['/_publishing/webauthn.js', '/_publishing/manage.js', '/_publishing/passkeys.js']

function passkeyItem(
  language: EditorLanguage,
  passkey: PasskeyListing,
  index: number,
  only: boolean,
) {
  const t = OWN_SIGN_IN_TEXTS[language]
  const id = `passkey-${index}`
  const about = `aria-describedby="${id}"`
  const ref = `<input type="hidden" name="passkey" value="${escapeHtml(passkey.ref)}">`
  const confirm = only
    ? `<label><input type="checkbox" name="confirm" value="yes"> ${escapeHtml(t.confirmLast)}</label>`
    : ''
  return `<li><h3 id="${id}">${escapeHtml(passkey.name ?? t.unnamed)}</h3>
<p>${escapeHtml(t.added(berlinTime(passkey.createdAt, language)))}; ${escapeHtml(t.lastUsed(passkey.lastUsedAt && berlinTime(passkey.lastUsedAt, language)))}.</p>
<form data-action="/api/me/passkeys/rename" data-reload>${ref}<label for="name-${index}">${escapeHtml(t.newName)}</label><input id="name-${index}" name="name" required maxlength="60" value="${escapeHtml(passkey.name ?? '')}"><button class="secondary" type="submit" ${about} disabled>${escapeHtml(t.rename)}</button></form>
<form data-action="/api/me/passkeys/remove" data-reload>${ref}${confirm}<button class="secondary" type="submit" ${about} disabled>${escapeHtml(t.remove)}</button></form></li>`
}

/** The page of "Your sign-in" for a person, in their language. */
export function ownSignInPage(language: EditorLanguage, view: OwnSignInView): string {
  const t = OWN_SIGN_IN_TEXTS[language]
  const page = PAGE_TEXTS[language]
  const passkeys = view.passkeys
  const keys =
    passkeys === null
      ? `<p>${escapeHtml(t.provider)}</p>`
      : `<p>${escapeHtml(t.passkeysIntro)}</p>
<ul class="passkeys">${passkeys.map((passkey, index) => passkeyItem(language, passkey, index, passkeys.length === 1)).join('\n')}</ul>
<h3>${escapeHtml(t.add)}</h3>
<form id="add-passkey"><label for="new-passkey">${escapeHtml(t.addName)}</label><input id="new-passkey" name="name" required maxlength="60"><p id="add-hint">${escapeHtml(t.addHint)}</p><button type="submit" aria-describedby="add-hint" disabled>${escapeHtml(t.add)}</button></form>`
  return layout(
    language,
    t.title,
    `${serviceNav(language, view.waiting)}<h1>${escapeHtml(t.title)}</h1>
<section aria-labelledby="passkeys"><h2 id="passkeys">${escapeHtml(t.passkeys)}</h2>
${keys}</section>
<section aria-labelledby="sessions"><h2 id="sessions">${escapeHtml(t.sessions)}</h2>
<p>${escapeHtml(t.otherSessions(view.otherSessions))}</p>
<form data-action="/api/me/sessions/end-others" data-reload><p id="end-hint">${escapeHtml(t.endOthersHint)}</p><button class="secondary" type="submit" aria-describedby="end-hint" disabled>${escapeHtml(t.endOthers)}</button></form></section>
<div role="status" id="status" data-waiting="${escapeHtml(page.waiting)}" data-unsupported="${escapeHtml(page.noWebAuthn)}"></div>`,
    SCRIPTS,
  )
}
