/**
 * People and their roles (`/people`, administrators only): what each role may do, the grants
 * that wait for a second administrator (Confirm and Refuse where the rules let the viewer),
 * each person with their roles to change, their access to take away and their sign-in to reset,
 * and the form that makes an invitation link. It renders `PeopleView` (`people-view.ts`); the
 * routes check whatever it offers again.
 */
import { Fragment } from 'react'
import { ROLES, type Role } from '../people/roles'
import { berlinTime } from '../workflow/berlin-time'
import { ROLE_NAMES } from '../workflow/four-eyes'
import type { PeopleView, PersonRowView } from './people-view'
import { nameIn, renderScreen, type Viewer } from './screen'
import { MANAGE_TEXTS } from './texts'
import { Hidden, Notice, Status, WhyNot } from './widgets'

type Texts = (typeof MANAGE_TEXTS)['en']

/**
 * The roles' checkboxes, `checked` ticked; those `waiting` for a second administrator are
 * ticked too and say so: saving them again keeps their grant, unticking one replaces it.
 */
function RoleBoxes({
  t,
  names,
  prefix,
  checked,
  waiting = [],
  hint,
}: {
  t: Texts
  names: Record<Role, string>
  prefix: string
  checked: readonly Role[]
  waiting?: readonly Role[]
  hint?: string
}) {
  return (
    <fieldset aria-describedby={hint}>
      <legend>{t.roles}</legend>
      {ROLES.map((role) => (
        <label key={role}>
          <input
            type="checkbox"
            name="roles"
            value={role}
            defaultChecked={checked.includes(role) || waiting.includes(role)}
            id={`${prefix}-${role}`}
          />{' '}
          {names[role]}
          {waiting.includes(role) ? (
            <>
              {' '}
              <em>({t.awaitingMark})</em>
            </>
          ) : null}
        </label>
      ))}
    </fieldset>
  )
}

/** What each role may do, for the administrator who gives them. */
function RolesExplained({ t, names }: { t: Texts; names: Record<Role, string> }) {
  return (
    <details className="roles-explained">
      <summary>{t.rolesExplained}</summary>
      <dl>
        {ROLES.map((role) => (
          <div key={role}>
            <dt>{names[role]}</dt>
            <dd>{t.roleDoes[role]}</dd>
          </div>
        ))}
      </dl>
    </details>
  )
}

function Held({
  someone,
  t,
  names,
}: {
  someone: PersonRowView
  t: Texts
  names: Record<Role, string>
}) {
  const roles = someone.roles.map((role, index) => (
    <Fragment key={role}>
      {index > 0 ? ', ' : ''}
      {names[role]}
      {someone.unconfirmed.includes(role) ? (
        <>
          {' '}
          <strong className="unconfirmed">({t.unconfirmedMark})</strong>
        </>
      ) : null}
    </Fragment>
  ))
  return (
    <p>
      {t.hasRoles}: {roles.length ? roles : t.noRoles}
      {someone.pending.length ? (
        <>
          ; {someone.pending.map((role) => names[role]).join(', ')} <em>({t.awaitingMark})</em>
        </>
      ) : null}
      {someone.passkeys === null ? null : ` · ${t.passkeyCount(someone.passkeys)}`}
    </p>
  )
}

function PersonItem({
  someone,
  index,
  t,
  names,
}: {
  someone: PersonRowView
  index: number
  t: Texts
  names: Record<Role, string>
}) {
  const about = `person-${index}`
  const email = <Hidden name="email" value={someone.email} />
  return (
    <li className="person">
      <h2 id={about}>
        {someone.name} <span className="email">&lt;{someone.email}&gt;</span>
        {someone.disabled ? ` (${t.disabled})` : ''}
      </h2>
      <Held someone={someone} t={t} names={names} />
      {someone.disabled ? (
        <p>{t.noAccess}</p>
      ) : (
        <>
          <form data-action="/api/people/roles" data-reload="" data-done={t.rolesSaved}>
            {email}
            <RoleBoxes
              t={t}
              names={names}
              prefix={`p${index}`}
              checked={someone.roles}
              waiting={someone.pending}
            />
            <button type="submit" aria-describedby={about} disabled>
              {t.save}
            </button>
          </form>
          <div className="actions">
            <form
              data-action="/api/people/disable"
              data-reload=""
              data-confirm={t.disableConfirm(someone.name)}
            >
              {email}
              <button className="danger" type="submit" aria-describedby={about} disabled>
                {t.disable}
              </button>
            </form>
            {someone.resettable ? (
              <form
                data-action="/api/people/reset-sign-in"
                data-show="link"
                data-link-text={t.linkText}
                data-copy={t.copyLink}
                data-copied={t.linkCopied}
              >
                {email}
                <button
                  className="secondary"
                  type="submit"
                  aria-describedby={`${about} reset-hint`}
                  disabled
                >
                  {t.resetSignIn}
                </button>
              </form>
            ) : null}
            <form data-action="/api/people/end-sessions" data-show="done">
              {email}
              <button className="secondary" type="submit" aria-describedby={about} disabled>
                {t.endSessions}
              </button>
            </form>
          </div>
        </>
      )}
    </li>
  )
}

function Grants({ view, t, viewer }: { view: PeopleView; t: Texts; viewer: Viewer }) {
  const language = viewer.person.language
  const names = ROLE_NAMES[language]
  if (view.grants.length === 0) return <p>{t.noGrants}</p>
  return (
    <ul className="grants">
      {view.grants.map((grant) => {
        const id = `grant-${grant.id}`
        const hidden = <Hidden name="id" value={String(grant.id)} />
        return (
          <li key={grant.id}>
            {/* By address only: the name is the person's own choice, the address the administrator's. */}
            <h3 id={id}>
              {t.grantFor(grant.roles.map((role) => names[role]).join(', '), grant.email)}
            </h3>
            <p>
              {t.grantProposed(
                nameIn(viewer, grant.proposedBy),
                berlinTime(grant.proposedAt, language),
                grant.via === 'invitation',
              )}
              .{' '}
              <strong className={grant.awaiting === 'unconfirmed' ? 'unconfirmed' : undefined}>
                {t.grantStates[grant.awaiting]}
              </strong>
            </p>
            {grant.confirm.allowed ? (
              <form data-action="/api/people/grants/confirm" data-reload="">
                {hidden}
                <button type="submit" aria-describedby={id} disabled>
                  {t.confirm}
                </button>
              </form>
            ) : (
              <WhyNot>{grant.confirmable ? grant.confirm.reason : t.nobodyCanConfirm}</WhyNot>
            )}
            {grant.refuse.allowed ? (
              <form data-action="/api/people/grants/refuse" data-reload="">
                {hidden}
                <button className="secondary" type="submit" aria-describedby={id} disabled>
                  {grant.withdraw ? t.withdraw : t.refuse}
                </button>
              </form>
            ) : null}
          </li>
        )
      })}
    </ul>
  )
}

/** The people page, for an administrator. */
export function peoplePage(viewer: Viewer, view: PeopleView): string {
  const language = viewer.person.language
  const t = MANAGE_TEXTS[language]
  const names = ROLE_NAMES[language]
  return renderScreen({
    language,
    title: t.people,
    viewer,
    place: 'people',
    children: (
      <>
        <h1>{t.people}</h1>
        {view.unconfirmed ? <Notice>{t.unconfirmedNotice(view.unconfirmed)}</Notice> : null}
        <RolesExplained t={t} names={names} />
        <section aria-labelledby="grants">
          <h2 id="grants">{t.grants}</h2>
          <p>{t.grantsIntro}</p>
          <Grants view={view} t={t} viewer={viewer} />
        </section>
        {view.people.some((someone) => someone.resettable) ? (
          <p id="reset-hint">{t.resetHint}</p>
        ) : null}
        <ul className="people">
          {view.people.map((someone, index) => (
            <PersonItem key={someone.email} someone={someone} index={index} t={t} names={names} />
          ))}
        </ul>
        <h2>{t.invite}</h2>
        <form
          data-action="/api/people/invite"
          data-show="link"
          data-link-text={t.linkText}
          data-copy={t.copyLink}
          data-copied={t.linkCopied}
        >
          <label htmlFor="invite-email">{t.email}</label>
          <input id="invite-email" name="email" type="email" required />
          <RoleBoxes t={t} names={names} prefix="invite" checked={[]} hint="invite-hint" />
          <p id="invite-hint">{t.inviteHint}</p>
          <button type="submit" disabled>
            {t.sendInvitation}
          </button>
        </form>
        <Status />
      </>
    ),
  })
}
