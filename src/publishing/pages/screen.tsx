/**
 * The frame of every screen of the publishing service, in React and rendered on the server
 * (`renderScreen`): the document's head (its stylesheet and icon, no inline script or style, so
 * the service's policy stays as strict as it is), the bar every signed-in screen shares (the
 * bank's mark, the places the viewer may go with the count of drafts waiting for them, their
 * name, the other language and sign-out), then the screen's own content and its scripts,
 * loaded by URL. Nothing is hydrated: the screens work as HTML, and their forms as
 * `/_publishing/manage.js` sends them.
 */
import { createContext, type ReactNode, useContext } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { INTER_LATIN } from '../../http/site-styles'
import { Mark } from '../../shared/brand-mark'
import { ServiceHead } from '../../shared/service-head'
import { FONT_PATH } from '../http/browser-bundle'
import type { EditorLanguage, Person } from '../people/roles'
import { mayManagePeople } from '../workflow/four-eyes'
import { BAR_TEXTS } from './texts'

/** Who looks at a screen: the person, and how many drafts wait for them (notices/waiting.ts). */
export interface Viewer {
  person: Person
  waiting: number
  /** Everyone's name by their e-mail address, for the screen to name people. */
  names?: ReadonlyMap<string, string> | undefined
}

const Names = createContext<ReadonlyMap<string, string>>(new Map())

/**
 * How a screen names a person known by their e-mail address: by their name, or by the address
 * where the service knows none (someone removed since, or a name not yet given).
 */
export function useNameOf(): (email: string) => string {
  const names = useContext(Names)
  return (email) => names.get(email) ?? email
}

/** The same, outside a component: a person's name as `viewer` knows it. */
export const nameIn = (viewer: Viewer, email: string): string => viewer.names?.get(email) ?? email

/** The places of the bar; a screen names its own, which the bar marks as the current one. */
export type Place = 'editor' | 'changes' | 'releases' | 'schedules' | 'people' | 'audit' | 'me'

export interface ScreenProps {
  language: EditorLanguage
  /** The screen's title, without the product's name. */
  title: string
  /** The signed-in person, for the bar; a screen without one has the mark alone. */
  viewer?: Viewer | undefined
  place?: Place
  /** Scripts of `/_publishing/`, loaded deferred in this order. */
  scripts?: readonly string[]
  /** Wider content (the page of changes, the audit trail). */
  wide?: boolean
  children: ReactNode
}

/** The bar of a screen: the mark and product, then (signed in) the places and the person. */
export function Bar({
  language,
  viewer,
  place,
}: {
  language: EditorLanguage
  viewer?: Viewer | undefined
  place?: Place | undefined
}) {
  const t = BAR_TEXTS[language]
  const other: EditorLanguage = language === 'de' ? 'en' : 'de'
  const brand = (
    <a className="brand" href={viewer ? '/changes' : '/sign-in'}>
      <Mark />
      <span className="brand-name">Lumora Bank</span> <span className="product">{t.product}</span>
    </a>
  )
  if (!viewer) return <header className="bar">{brand}</header>
  const { person, waiting } = viewer
  const places: { key: Place; href: string; label: string; count?: number }[] = [
    { key: 'editor', href: '/admin/', label: t.editor },
    { key: 'changes', href: '/changes', label: t.changes, count: waiting },
    { key: 'releases', href: '/releases', label: t.releases },
    { key: 'schedules', href: '/schedules', label: t.schedules },
    ...(mayManagePeople(person).allowed
      ? ([
          { key: 'people', href: '/people', label: t.people },
          { key: 'audit', href: '/audit', label: t.audit },
        ] as const)
      : []),
  ]
  return (
    <header className="bar">
      {brand}
      <nav aria-label={t.navigation} className="places">
        <ul>
          {places.map(({ key, href, label, count }) => (
            <li key={key}>
              <a href={href} aria-current={key === place ? 'page' : undefined}>
                {label}
                {count ? (
                  <>
                    {' '}
                    <span className="badge" aria-hidden="true">
                      {count}
                    </span>
                    <span className="sr-only">{t.waitingForYou(count)}</span>
                  </>
                ) : null}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="account">
        <a href="/me/sign-in" aria-current={place === 'me' ? 'page' : undefined}>
          <span className="sr-only">{t.yourSignIn} </span>
          {person.name}
        </a>
        <form data-action="/api/me/language" data-reload="">
          <input type="hidden" name="language" value={other} />
          <button type="submit" className="quiet" lang={other} disabled>
            {t.otherLanguage}
          </button>
        </form>
        <form data-action="/sign-out" data-reload="">
          <button type="submit" className="quiet" disabled>
            {t.signOut}
          </button>
        </form>
      </div>
    </header>
  )
}

/**
 * The question manage.js asks before a step that is hard to undo (a form's `data-confirm` is
 * its text): Cancel comes first and has the focus.
 */
function ConfirmDialog({ language }: { language: EditorLanguage }) {
  const t = BAR_TEXTS[language]
  return (
    <dialog id="confirm" aria-labelledby="confirm-title" aria-describedby="confirm-text">
      <h2 id="confirm-title">{t.confirmTitle}</h2>
      <p id="confirm-text" />
      <form method="dialog">
        <button type="submit" value="cancel" className="secondary">
          {t.confirmNo}
        </button>
        <button type="submit" value="yes">
          {t.confirmYes}
        </button>
      </form>
    </dialog>
  )
}

/** A whole screen: head, bar, `main` with the content, then the scripts. */
export function Screen({
  language,
  title,
  viewer,
  place,
  scripts = [],
  wide,
  children,
}: ScreenProps) {
  // The bar's language and sign-out forms are sent by manage.js.
  const all = viewer && !scripts.includes(MANAGE_SCRIPT) ? [...scripts, MANAGE_SCRIPT] : scripts
  return (
    <html lang={language}>
      <ServiceHead
        title={`${title} · Lumora Bank`}
        stylesheet="/_publishing/service.css"
        font={SERVICE_FONT}
      />
      {/* What manage.js says itself, on any screen, in the screen's language. */}
      <body
        data-no-answer={BAR_TEXTS[language].noAnswer}
        data-show-new-version={BAR_TEXTS[language].showNewVersion}
      >
        <a className="skip" href="#main">
          {BAR_TEXTS[language].skip}
        </a>
        <Bar language={language} viewer={viewer} place={place} />
        <main id="main" className={wide ? 'wide' : undefined}>
          <Names.Provider value={viewer?.names ?? new Map()}>{children}</Names.Provider>
        </main>
        {viewer ? <ConfirmDialog language={language} /> : null}
        {all.map((src) => (
          <script key={src} src={src} defer />
        ))}
      </body>
    </html>
  )
}

export const MANAGE_SCRIPT = '/_publishing/manage.js'
/** Inter's Latin face, preloaded by every screen (served by assets.ts). */
export const SERVICE_FONT = `${FONT_PATH}${INTER_LATIN}`

/** The HTML of a screen, as the routes send it. */
export function renderScreen(props: ScreenProps): string {
  return `<!doctype html>\n${renderToStaticMarkup(<Screen {...props} />)}\n`
}
