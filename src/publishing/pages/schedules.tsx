/**
 * Schedules (`/schedules`): the approved drafts to schedule, each with a time offered, and the
 * schedules made, with Cancel on those still waiting.
 */
import { berlinTime } from '../workflow/berlin-time'
import type { DraftView } from '../workflow/drafts'
import type { Schedule } from '../workflow/schedules'
import { nameIn, renderScreen, type Viewer } from './screen'
import { MANAGE_TEXTS } from './texts'
import { Hidden, Status } from './widgets'

export interface SchedulesView {
  ready: readonly DraftView[]
  schedules: readonly Schedule[]
  /** The drafts' titles in the viewer's language, by draft (the id where one has none). */
  titles: ReadonlyMap<string, string>
  /** The time offered (`datetime-local`, Berlin time). */
  soon: string
}

/**
 * A schedule's outcome as the service records it (in English), in the viewer's words; a
 * refusal's or a failed build's own message as it is.
 */
function outcomeText(outcome: string, t: (typeof MANAGE_TEXTS)['en']): string {
  if (outcome === 'replaced by a later schedule') return t.outcomeReplaced
  const published = /^published as release (\S+)$/.exec(outcome)
  return published ? t.outcomePublished(published[1] ?? '') : outcome
}

export function schedulesPage(viewer: Viewer, view: SchedulesView): string {
  const language = viewer.person.language
  const t = MANAGE_TEXTS[language]
  return renderScreen({
    language,
    title: t.schedules,
    viewer,
    place: 'schedules',
    children: (
      <>
        <h1>{t.schedules}</h1>
        <h2>{t.ready}</h2>
        {view.ready.length > 0 ? (
          <ul className="cards">
            {view.ready.map((draft, index) => (
              <li key={draft.id}>
                <strong>{view.titles.get(draft.id) ?? draft.id}</strong>
                {draft.deletes.length > 0 && draft.deletes.length === draft.files.length
                  ? ` (${t.deletion})`
                  : ''}
                , {draft.approval ? nameIn(viewer, draft.approval.by) : ''}
                <form data-action="/api/schedules" data-reload="">
                  <Hidden name="draft" value={draft.id} />
                  <label htmlFor={`at-${index}`}>{t.publishAt}</label>
                  <input
                    id={`at-${index}`}
                    name="at"
                    type="datetime-local"
                    required
                    defaultValue={view.soon}
                  />
                  <button type="submit" disabled>
                    {t.schedule}
                  </button>
                </form>
              </li>
            ))}
          </ul>
        ) : (
          <p>{t.noReady}</p>
        )}
        <h2>{t.planned}</h2>
        {view.schedules.length > 0 ? (
          <ul className="cards">
            {view.schedules.map((schedule) => (
              <li key={schedule.id}>
                <strong>{view.titles.get(schedule.draftId) ?? schedule.draftId}</strong>:{' '}
                {berlinTime(schedule.at, language)}, {t.states[schedule.state]}
                {schedule.outcome ? ` (${outcomeText(schedule.outcome, t)})` : ''},{' '}
                {nameIn(viewer, schedule.createdBy)}
                {schedule.state === 'pending' ? (
                  <form data-action="/api/schedules/cancel" data-reload="">
                    <Hidden name="id" value={String(schedule.id)} />
                    <button className="secondary" type="submit" disabled>
                      {t.cancel}
                    </button>
                  </form>
                ) : null}
              </li>
            ))}
          </ul>
        ) : (
          <p>{t.noSchedules}</p>
        )}
        <Status />
      </>
    ),
  })
}
