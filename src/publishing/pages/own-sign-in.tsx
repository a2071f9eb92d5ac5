/**
 * "Your sign-in" (`/me/sign-in`): the signed-in person's passkeys, each with its name, when it
 * was added and last used, to rename or remove, the form that adds another (its ceremony in
 * `/_publishing/passkeys.js`), and their other sessions, to end. It renders `OwnSignInView`
 * only; the routes (`http/own-sign-in.ts`) check whatever it offers again.
 */
import type { EditorLanguage } from '../people/roles'
import type { PasskeyListing } from '../people/sign-in-keys'
import { berlinTime } from '../workflow/berlin-time'
import { renderScreen, type Viewer } from './screen'
import { OWN_SIGN_IN_TEXTS, PAGE_TEXTS } from './texts'
import { Hidden, Status } from './widgets'

export interface OwnSignInView {
  /** The person's passkeys, oldest first; `null` while the identity provider signs people in. */
  passkeys: readonly PasskeyListing[] | null
  /** Their sessions but this one. */
  otherSessions: number
}

const SCRIPTS = ['/_publishing/webauthn.js', '/_publishing/manage.js', '/_publishing/passkeys.js']

function PasskeyItem({
  language,
  passkey,
  index,
  only,
}: {
  language: EditorLanguage
  passkey: PasskeyListing
  index: number
  only: boolean
}) {
  const t = OWN_SIGN_IN_TEXTS[language]
  const about = `passkey-${index}`
  const ref = <Hidden name="passkey" value={passkey.ref} />
  return (
    <li>
      <h3 id={about}>{passkey.name ?? t.unnamed}</h3>
      <p>
        {t.added(berlinTime(passkey.createdAt, language))};{' '}
        {t.lastUsed(passkey.lastUsedAt && berlinTime(passkey.lastUsedAt, language))}.
      </p>
      <form data-action="/api/me/passkeys/rename" data-reload="">
        {ref}
        <label htmlFor={`name-${index}`}>{t.newName}</label>
        <input
          id={`name-${index}`}
          name="name"
          required
          maxLength={60}
          defaultValue={passkey.name ?? ''}
        />
        <button className="secondary" type="submit" aria-describedby={about} disabled>
          {t.rename}
        </button>
      </form>
      <form data-action="/api/me/passkeys/remove" data-reload="">
        {ref}
        {only ? (
          <label>
            <input type="checkbox" name="confirm" value="yes" /> {t.confirmLast}
          </label>
        ) : null}
        <button className="danger" type="submit" aria-describedby={about} disabled>
          {t.remove}
        </button>
      </form>
    </li>
  )
}

/** The page of "Your sign-in" for a person, in their language. */
export function ownSignInPage(viewer: Viewer, view: OwnSignInView): string {
  const language = viewer.person.language
  const t = OWN_SIGN_IN_TEXTS[language]
  const page = PAGE_TEXTS[language]
  const { passkeys } = view
  return renderScreen({
    language,
    title: t.title,
    viewer,
    place: 'me',
    scripts: SCRIPTS,
    children: (
      <>
        <h1>{t.title}</h1>
        <section aria-labelledby="passkeys">
          <h2 id="passkeys">{t.passkeys}</h2>
          {passkeys === null ? (
            <p>{t.provider}</p>
          ) : (
            <>
              <p>{t.passkeysIntro}</p>
              <ul className="passkeys">
                {passkeys.map((passkey, index) => (
                  <PasskeyItem
                    key={passkey.ref}
                    language={language}
                    passkey={passkey}
                    index={index}
                    only={passkeys.length === 1}
                  />
                ))}
              </ul>
              <h3>{t.add}</h3>
              <form id="add-passkey">
                <label htmlFor="new-passkey">{t.addName}</label>
                <input id="new-passkey" name="name" required maxLength={60} />
                <p id="add-hint">{t.addHint}</p>
                <button type="submit" aria-describedby="add-hint" disabled>
                  {t.add}
                </button>
              </form>
            </>
          )}
        </section>
        <section aria-labelledby="sessions">
          <h2 id="sessions">{t.sessions}</h2>
          <p>{t.otherSessions(view.otherSessions)}</p>
          <form data-action="/api/me/sessions/end-others" data-reload="">
            <p id="end-hint">{t.endOthersHint}</p>
            <button className="secondary" type="submit" aria-describedby="end-hint" disabled>
              {t.endOthers}
            </button>
          </form>
        </section>
        <Status waiting={page.waiting} unsupported={page.noWebAuthn} />
      </>
    ),
  })
}
