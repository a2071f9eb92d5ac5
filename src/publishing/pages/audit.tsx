/**
 * The audit trail (`/audit`, administrators only): what the chain's check found, a filter by
 * action, then a page of entries, the newest first. Each entry reads as a sentence's parts
 * (when, who by name, what in the viewer's language, to what) with its details as a list of
 * names and values; on a narrow screen each row becomes a card. The exports hold the raw data.
 */
import type { verifyWithAnchors } from '../audit/anchors'
import { AUDIT_ACTIONS, type AuditAction, type AuditEntry } from '../audit/trail'
import { berlinTime } from '../workflow/berlin-time'
import { renderScreen, type Viewer } from './screen'
import { AUDIT_TEXTS, MANAGE_TEXTS } from './texts'

type Verified = Awaited<ReturnType<typeof verifyWithAnchors>>

export interface AuditView {
  check: Verified['check']
  outcome: Verified['outcome']
  shown: readonly AuditEntry[]
  /** The action the page shows only, if any. */
  action: AuditAction | undefined
  /** Entries on a full page: one that is full links to the older ones. */
  pageSize: number
  /** People's names by their e-mail address, to name who acted. */
  names: ReadonlyMap<string, string>
}

/** What the chain's check found, in a sentence or three. */
function summaryOf(view: AuditView, t: (typeof MANAGE_TEXTS)['en']): string {
  const { check, outcome } = view
  if (outcome.kind === 'tampered') return t.chainBroken(outcome.brokenAt, outcome.reason)
  const anchored =
    check.ok && check.anchors && check.anchors.checked > 0
      ? ` ${t.anchored(check.anchors.checked, check.anchors.last)}`
      : check.ok
        ? ` ${t.notAnchored}`
        : ''
  const unchecked = check.ok && check.unchecked ? ` ${t.unchecked(check.unchecked.entries)}` : ''
  const unanchored = outcome.kind === 'unanchored' ? ` ${t.unanchoredYet(outcome.unanchored)}` : ''
  const noKey =
    outcome.kind === 'unverifiable' && /^AUDIT_KEY is not set/.test(outcome.reason)
      ? ` ${t.noKey}`
      : ''
  return `${t.chainOk(check.entries)}${anchored}${unanchored}${unchecked}${noKey}`
}

/** A detail's value as text: lists joined, objects as their own names and values. */
function detailText(value: unknown): string {
  if (value === null || value === undefined) return '–'
  if (Array.isArray(value)) return value.map(detailText).join(', ')
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([key, each]) => `${key}: ${detailText(each)}`)
      .join('; ')
  }
  return String(value)
}

/**
 * An entry's details: their names in the viewer's words, their values as recorded (codes, and
 * reasons in the words of who was refused), marked so that no one translates the record.
 */
function Details({ entry, a }: { entry: AuditEntry; a: (typeof AUDIT_TEXTS)['en'] }) {
  const commits = [entry.before, entry.after]
    .filter(Boolean)
    .map((commit) => String(commit).slice(0, 12))
    .join(' → ')
  const pairs = Object.entries(entry.details)
  if (pairs.length === 0 && !commits) return null
  return (
    <dl className="details">
      {commits ? (
        <div>
          <dt>{a.commit}</dt>
          <dd translate="no">
            <code>{commits}</code>
          </dd>
        </div>
      ) : null}
      {pairs.map(([key, value]) => (
        <div key={key}>
          {/* A name the screens have no word for is shown as recorded. */}
          <dt translate={a.detailNames[key] ? undefined : 'no'}>{a.detailNames[key] ?? key}</dt>
          <dd translate="no">{detailText(value)}</dd>
        </div>
      ))}
    </dl>
  )
}

/** One page of the audit trail. */
export function auditPage(viewer: Viewer, view: AuditView): string {
  const language = viewer.person.language
  const t = MANAGE_TEXTS[language]
  const a = AUDIT_TEXTS[language]
  const { shown, action } = view
  const oldest = shown.at(-1)?.id
  const who = (actor: string) =>
    actor === 'service' ? a.service : (view.names.get(actor) ?? actor)
  const columns = { when: t.when, who: t.who, what: t.what, subject: t.subject, details: a.details }
  return renderScreen({
    language,
    title: t.audit,
    viewer,
    place: 'audit',
    wide: true,
    children: (
      <>
        <h1>{t.audit}</h1>
        <p>{summaryOf(view, t)}</p>
        <p>
          {t.download}:{' '}
          <a href="/audit.csv" download>
            CSV
          </a>{' '}
          ·{' '}
          <a href="/audit.json" download>
            JSON
          </a>
        </p>
        <form method="get" action="/audit" className="filter">
          <label htmlFor="audit-action">{a.filter}</label>
          <select id="audit-action" name="action" defaultValue={action ?? ''}>
            <option value="">{a.everything}</option>
            {AUDIT_ACTIONS.map((each) => (
              <option key={each} value={each}>
                {a.actions[each]}
              </option>
            ))}
          </select>
          <button type="submit" className="secondary">
            {a.show}
          </button>
        </form>
        {shown.length === 0 ? (
          <p>{a.noEntries}</p>
        ) : (
          // A region that scrolls sideways on a narrow screen, so it takes the focus to scroll.
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region needs the focus
          <section className="table" aria-label={t.audit} tabIndex={0}>
            <table className="trail">
              <caption>{action ? `${t.audit}: ${a.actions[action]}` : t.audit}</caption>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  {Object.values(columns).map((label) => (
                    <th scope="col" key={label}>
                      {label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {shown.map((entry) => (
                  <tr key={entry.id} className={entry.action === 'refusal' ? 'refusal' : undefined}>
                    <th scope="row">{entry.id}</th>
                    <td data-label={columns.when}>{berlinTime(entry.at, language)}</td>
                    <td data-label={columns.who}>{who(entry.actor)}</td>
                    <td data-label={columns.what}>{a.actions[entry.action] ?? entry.action}</td>
                    <td data-label={columns.subject} translate="no">
                      {entry.subject}
                    </td>
                    <td data-label={columns.details}>
                      <Details entry={entry} a={a} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )}
        {shown.length === view.pageSize && oldest ? (
          <p>
            <a href={`/audit?before=${oldest}${action ? `&action=${action}` : ''}`}>{t.older}</a>
          </p>
        ) : null}
      </>
    ),
  })
}
