/**
 * The screens before and around signing in: the sign-in page (and, signed in, the start page
 * with the person's settings), the page the identity provider sends people back to, the
 * invitation, and the page a person's roles do not open. Their scripts are files of their own
 * (`src/publishing/browser/`, served under `/_publishing/`): the service's policy allows no
 * inline script.
 */
import type { EditorLanguage } from '../people/roles'
import { renderScreen, type Viewer } from './screen'
import { PAGE_TEXTS } from './texts'
import { Status } from './widgets'

const SIGN_IN_SCRIPTS = ['/_publishing/webauthn.js', '/_publishing/sign-in.js']

function LanguageChoice({ language }: { language: EditorLanguage }) {
  return (
    <select id="language" name="language" defaultValue={language}>
      <option value="en" lang="en">
        English
      </option>
      <option value="de" lang="de">
        Deutsch
      </option>
    </select>
  )
}

/** The start page of a signed-in person: the editor, the changes, their settings. */
function StartPage({ viewer, notices }: { viewer: Viewer; notices: boolean }) {
  const { person, waiting } = viewer
  const t = PAGE_TEXTS[person.language]
  return (
    <>
      <h1>{t.signInTitle}</h1>
      <p>
        {t.signedInAs} {person.name} ({person.email}).
      </p>
      <p>
        <a className="button" href="/admin/">
          {t.openEditor}
        </a>
      </p>
      <p>
        <a href="/me/sign-in">{t.yourSignIn}</a>
      </p>
      {waiting > 0 ? (
        <p>
          <a href="/changes">{t.changesWaiting(waiting)}</a>
        </p>
      ) : null}
      <form data-action="/api/me/language" data-reload="">
        <label htmlFor="language">{t.language}</label>
        <LanguageChoice language={person.language} />
        <button className="secondary" type="submit" disabled>
          {t.saveLanguage}
        </button>
      </form>
      <form data-action="/api/me/notices" data-reload="">
        <fieldset>
          <legend>{t.notices}</legend>
          <label>
            <input type="radio" name="notices" value="on" defaultChecked={notices} /> {t.noticesOn}
          </label>
          <label>
            <input type="radio" name="notices" value="off" defaultChecked={!notices} />{' '}
            {t.noticesOff}
          </label>
        </fieldset>
        <button className="secondary" type="submit" disabled>
          {t.saveNotices}
        </button>
      </form>
      <form data-action="/sign-out" data-reload="">
        <button className="secondary" type="submit" disabled>
          {t.signOut}
        </button>
      </form>
      <Status />
    </>
  )
}

export function signInPage(
  language: EditorLanguage,
  options: {
    provider: boolean
    passkeys: boolean
    /** The signed-in person, and whether they get the e-mails about drafts (notices). */
    signedIn?: { viewer: Viewer; notices: boolean }
  },
): string {
  const t = PAGE_TEXTS[language]
  if (options.signedIn) {
    return renderScreen({
      language,
      title: t.signInTitle,
      viewer: options.signedIn.viewer,
      children: <StartPage {...options.signedIn} />,
    })
  }
  return renderScreen({
    language,
    title: t.signInTitle,
    scripts: SIGN_IN_SCRIPTS,
    children: (
      <>
        <h1>{t.signInTitle}</h1>
        <p>{t.signInIntro}</p>
        {options.passkeys ? (
          <button type="button" id="passkey-sign-in">
            {t.signInPasskey}
          </button>
        ) : null}
        {options.provider ? (
          <button
            type="button"
            id="provider-sign-in"
            className={options.passkeys ? 'secondary' : undefined}
          >
            {t.signInProvider}
          </button>
        ) : null}
        <Status waiting={t.waiting} unsupported={t.noWebAuthn} />
      </>
    ),
  })
}

/** Where the identity provider sends the person back: the page finishes the sign-in by POST. */
export function providerReturnPage(language: EditorLanguage): string {
  const t = PAGE_TEXTS[language]
  return renderScreen({
    language,
    title: t.signInTitle,
    scripts: SIGN_IN_SCRIPTS,
    children: (
      <>
        <h1 id="provider-return">{t.signInTitle}</h1>
        <Status>{t.waiting}</Status>
      </>
    ),
  })
}

export function invitationPage(language: EditorLanguage): string {
  const t = PAGE_TEXTS[language]
  return renderScreen({
    language,
    title: t.invitationTitle,
    scripts: SIGN_IN_SCRIPTS,
    children: (
      <>
        <h1>{t.invitationTitle}</h1>
        <p id="invitation-intro">{t.invitationIntro}</p>
        <p id="reset-intro" hidden>
          {t.resetIntro}
        </p>
        <form id="invitation">
          <div id="name-field">
            <label htmlFor="name">{t.name}</label>
            <input id="name" name="name" autoComplete="name" required maxLength={200} />
          </div>
          <div id="email-field" hidden>
            <label htmlFor="email">{t.email}</label>
            <input id="email" name="email" type="email" autoComplete="email" maxLength={254} />
          </div>
          <label htmlFor="language">{t.language}</label>
          <LanguageChoice language={language} />
          <button type="submit">{t.createPasskey}</button>
        </form>
        <Status waiting={t.waiting} unsupported={t.noWebAuthn} />
      </>
    ),
  })
}

/** A page the person's roles do not open, saying why. */
export function forbiddenPage(viewer: Viewer, reason: string): string {
  return renderScreen({
    language: viewer.person.language,
    title: '403',
    viewer,
    children: (
      <>
        <h1>403</h1>
        <p>{reason}</p>
      </>
    ),
  })
}
