/**
 * Releases (`/releases`): what the site served, the live one first, each with what it changed or
 * brought back, who published and approved it, and the rollback the rules offer the viewer (at
 * once in an emergency, or asked for; either asks first); then the rollbacks waiting for a
 * reviewer, with Confirm for who may confirm them (`releasesView` in `releases-view.ts` decides).
 */
import { Fragment } from 'react'
import { berlinTime } from '../workflow/berlin-time'
import type { RollbackChanges } from '../workflow/rollbacks'
import type { ReleaseItem, ReleasesView, RequestItem } from './releases-view'
import { renderScreen, useNameOf, type Viewer } from './screen'
import { MANAGE_TEXTS } from './texts'
import { Hidden, Notice, Status, WhyNot } from './widgets'

type Texts = (typeof MANAGE_TEXTS)['en']

function Files({ label, items }: { label: string; items: readonly string[] }) {
  if (items.length === 0) return null
  return (
    <>
      <p>{label}:</p>
      <ul>
        {items.map((item) => (
          <li key={item}>
            <code>{item}</code>
          </li>
        ))}
      </ul>
    </>
  )
}

/**
 * What a rollback brought back and took away (`done`), or would (a request), and whose work:
 * lists of files and drafts.
 */
function RollbackChangesView({
  changes,
  t,
  done,
}: {
  changes: RollbackChanges
  t: Texts
  done: boolean
}) {
  const labels = done ? t.rollbackDid : t.rollbackWould
  const nameOf = useNameOf()
  return (
    <>
      <Files label={labels.returns} items={changes.returns} />
      <Files label={labels.goes} items={changes.goes} />
      <Files label={labels.changes} items={changes.changes} />
      <Files label={labels.undoes} items={changes.publications} />
      {changes.writers.length > 0 ? (
        <p>{t.rollbackWriters(changes.writers.map(nameOf).join(', '))}</p>
      ) : null}
    </>
  )
}

function ReleaseEntry({
  release,
  index,
  viewer,
}: {
  release: ReleaseItem
  index: number
  viewer: Viewer
}) {
  const language = viewer.person.language
  const t = MANAGE_TEXTS[language]
  const nameOf = useNameOf()
  const about = `release-${index}`
  const made = [
    t.releaseBy(t.releaseKinds[release.kind], nameOf(release.madeBy)),
    ...(release.approvedBy ? [t.releaseApproved(nameOf(release.approvedBy))] : []),
    ...(release.rollback?.requestedBy
      ? [t.rollbackAskedBy(nameOf(release.rollback.requestedBy))]
      : []),
  ].join(', ')
  const rollback = (label: string, confirm: string) => (
    <form data-action="/api/releases/rollback" data-reload="" data-confirm={confirm}>
      <Hidden name="folder" value={release.folder} />
      <button type="submit" disabled aria-describedby={about}>
        {label}
      </button>
    </form>
  )
  const when = berlinTime(release.liveAt, language)
  return (
    <li aria-labelledby={about} className={release.live ? 'live-release' : undefined}>
      <h2 id={about}>
        {when}
        {release.live ? (
          <>
            {' '}
            <strong className="live">({t.live})</strong>
          </>
        ) : null}
        {release.rollback?.emergency ? (
          <>
            {' '}
            <strong className="emergency">({t.emergency})</strong>
          </>
        ) : null}
      </h2>
      <p>
        {made}. {t.releaseCommit} <code>{release.commit.slice(0, 12)}</code>,{' '}
        <code>{release.folder}</code>.
      </p>
      {release.kind === 'rollback' ? (
        <>
          <p>{t.releaseRolledBackTo(release.subject)}</p>
          {release.rollback?.changes ? (
            <RollbackChangesView changes={release.rollback.changes} t={t} done />
          ) : null}
        </>
      ) : (
        <>
          <Files label={`${t.releaseChanged} (${release.subject})`} items={release.files} />
          <Files label={`${t.releaseDeleted} (${release.subject})`} items={release.deleted} />
        </>
      )}
      {release.unreviewed.length > 0 ? (
        <Notice>
          <p>{t.unreviewed}</p>
          <ul>
            {release.unreviewed.map((taken) => (
              <li key={taken.commit}>
                {t.unreviewedCommit(taken.commit.slice(0, 12), taken.author)}:{' '}
                {taken.files.map((file, fileIndex) => (
                  <Fragment key={file}>
                    {fileIndex > 0 ? ', ' : ''}
                    <code>{file}</code>
                  </Fragment>
                ))}
              </li>
            ))}
          </ul>
        </Notice>
      ) : null}
      {release.offer === 'emergency' ? (
        rollback(t.rollBackNow, t.rollbackConfirm(when))
      ) : release.offer === 'request' ? (
        rollback(t.askRollBack, t.rollbackAskConfirm(when))
      ) : release.offer === 'waiting' ? (
        <p>{t.rollbackWaiting}</p>
      ) : null}
    </li>
  )
}

function RequestEntry({ request, viewer }: { request: RequestItem; viewer: Viewer }) {
  const language = viewer.person.language
  const t = MANAGE_TEXTS[language]
  const nameOf = useNameOf()
  const about = `request-${request.id}`
  return (
    <li aria-labelledby={about}>
      <h3 id={about}>{t.rollbackRequestTo(request.folder)}</h3>
      <p>
        {t.rollbackRequestBy(
          nameOf(request.requestedBy),
          berlinTime(request.requestedAt, language),
        )}
      </p>
      <p>
        {t.rollbackWhy} {request.reason}
      </p>
      <RollbackChangesView changes={request.changes} t={t} done={false} />
      {request.confirm.allowed ? (
        <form
          data-action="/api/releases/confirm"
          data-reload=""
          data-confirm={t.rollbackConfirm(request.folder)}
        >
          <Hidden name="id" value={String(request.id)} />
          <button type="submit" disabled aria-describedby={about}>
            {t.confirmRollback}
          </button>
        </form>
      ) : request.confirm.whyNot ? (
        <WhyNot>{t.mayNot(t.confirmRollbackName, request.confirm.whyNot)}</WhyNot>
      ) : null}
    </li>
  )
}

export function releasesPage(viewer: Viewer, view: ReleasesView): string {
  const language = viewer.person.language
  const t = MANAGE_TEXTS[language]
  return renderScreen({
    language,
    title: t.releases,
    viewer,
    place: 'releases',
    children: (
      <>
        <h1>{t.releases}</h1>
        <p>{t.releasesIntro}</p>
        {view.requests.length > 0 ? (
          <>
            <h2>{t.rollbackRequests}</h2>
            <p>{t.rollbackRequestsIntro}</p>
            <ul className="rollback-requests">
              {view.requests.map((request) => (
                <RequestEntry key={request.id} request={request} viewer={viewer} />
              ))}
            </ul>
          </>
        ) : null}
        {view.releases.length > 0 ? (
          <ol className="releases">
            {view.releases.map((release, index) => (
              <ReleaseEntry
                key={`${release.folder}-${release.liveAt}`}
                release={release}
                index={index}
                viewer={viewer}
              />
            ))}
          </ol>
        ) : (
          <p>{t.noReleases}</p>
        )}
        <Status />
      </>
    ),
  })
}
