/**
 * The page of changes (`/changes`): every draft waiting to go live, by its title, with what it
 * changes field by field (`review.tsx`), its comments, and the actions the rules allow the
 * viewer, each told why not where their role would otherwise allow it: the same rules the
 * service enforces on every request (`workflow/four-eyes.ts`). Publishing asks first.
 */

import { changeAnchor } from '../notices/notices'
import type { Person } from '../people/roles'
import type { FileReview } from '../review/compare'
import { berlinTime } from '../workflow/berlin-time'
import { type DraftView, MEDIA_DRAFTS } from '../workflow/drafts'
import {
  type Decision,
  mayApprove,
  mayDiscard,
  mayPublish,
  mayRequestChanges,
  shortVersion,
} from '../workflow/four-eyes'
import { FileReviewView } from './review'
import { renderScreen, useNameOf, type Viewer } from './screen'
import { MANAGE_TEXTS } from './texts'
import { Hidden, Status, WhyNot } from './widgets'

type Texts = (typeof MANAGE_TEXTS)['en']

/** Longer text is not shown on the page of changes (the editor shows it). */
const SOURCE_SHOWN_BYTES = 200 * 1024

/** A file of a draft as the page of changes lists it. */
export interface ChangedFile {
  path: string
  kind: 'added' | 'changed' | 'deleted'
  /** An entry's fields that changed, as its reviewer reads them. */
  review?: FileReview
  /** A drawing's source (an added one) or what changed in it (git's diff), to read. */
  source?: string
  /** A deleted entry's title, as it was. */
  title?: string
}

/** A draft as the page lists it: its files, and its title where an entry of it has one. */
export interface ListedDraft {
  draft: DraftView
  files: readonly ChangedFile[]
  title?: string | undefined
}

/**
 * A text file of a draft as a reviewer reads it: a new one as its source, a changed one as
 * what changed against the live version. Long ones are not shown whole.
 */
function SourceView({ file, id, t }: { file: ChangedFile; id: string; t: Texts }) {
  const text = file.source ?? ''
  const bytes = Buffer.byteLength(text)
  return (
    <details>
      <summary id={`source-${id}`}>
        {file.kind === 'added' ? t.sourceOf(file.path) : t.changesOf(file.path)}
      </summary>
      {bytes > SOURCE_SHOWN_BYTES ? (
        <p>{t.sourceTooLong(`${Math.round(bytes / 1024)} KB`)}</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a long source scrolls by keyboard too
        <pre tabIndex={0}>
          <code>{text}</code>
        </pre>
      )}
    </details>
  )
}

/** An image of the live site, as the service shows it to signed-in people. */
const siteImage = (value: string) => `/${value.replace(/^\//, '')}`
const draftImage = (id: string, path: string) =>
  `/changes/image?id=${encodeURIComponent(id)}&path=${encodeURIComponent(path)}`

function FileItem({
  draft,
  file,
  id,
  person,
}: {
  draft: DraftView
  file: ChangedFile
  id: string
  person: Person
}) {
  const t = MANAGE_TEXTS[person.language]
  return (
    <li className="file">
      <h3>
        <code>{file.path}</code> ({t.kinds[file.kind]})
      </h3>
      {file.path.startsWith('public/images/') && file.kind !== 'deleted' ? (
        <img src={draftImage(draft.id, file.path)} alt={t.imageOf(file.path)} width={240} />
      ) : null}
      {file.review ? (
        <FileReviewView
          review={file.review}
          language={person.language}
          images={{
            before: siteImage,
            after: (value) => {
              const path = `public/${value.replace(/^\//, '')}`
              return draft.files.includes(path) ? draftImage(draft.id, path) : siteImage(value)
            },
          }}
        />
      ) : null}
      {/* A reviewer approves what the files say: text as its source, a changed one as what changed. */}
      {file.source === undefined ? null : <SourceView file={file} id={id} t={t} />}
    </li>
  )
}

/** The actions the rules allow the viewer on a draft, and why not the others their role has. */
function Actions({ person, draft, index }: { person: Person; draft: DraftView; index: number }) {
  const t = MANAGE_TEXTS[person.language]
  const about = `draft-${index}`
  const hidden = <Hidden name="id" value={draft.id} />
  // A decision is on the version shown here: the service refuses it if another is there now.
  const version = <Hidden name="version" value={draft.head} />
  const approval = mayApprove(person, draft)
  const publication = mayPublish(person, draft)
  const whyNot = (decision: Decision, action: keyof Texts['actionNames']) =>
    !decision.allowed && decision.code !== 'role' ? (
      <WhyNot>{t.mayNot(t.actionNames[action], decision.reason)}</WhyNot>
    ) : null
  return (
    <div className="actions">
      {draft.status === 'pending_publish' ? null : approval.allowed ? (
        <form data-action="/api/changes/approve" data-reload="">
          {hidden}
          {version}
          <button type="submit" aria-describedby={about} disabled>
            {t.approve}
          </button>
        </form>
      ) : (
        whyNot(approval, 'approve')
      )}
      {mayRequestChanges(person).allowed && draft.status !== 'draft' ? (
        <form data-action="/api/changes/send-back" data-reload="" className="send-back">
          {hidden}
          <label htmlFor={`comment-${index}`}>{t.comment}</label>
          <textarea id={`comment-${index}`} name="comment" required maxLength={5000} />
          <button className="secondary" type="submit" aria-describedby={about} disabled>
            {t.sendBack}
          </button>
        </form>
      ) : null}
      {draft.status !== 'pending_publish' ? null : publication.allowed ? (
        <form data-action="/api/changes/publish" data-reload="" data-confirm={t.publishConfirm}>
          {hidden}
          {version}
          <button type="submit" aria-describedby={about} disabled>
            {t.publishNow}
          </button>
        </form>
      ) : (
        whyNot(publication, 'publish')
      )}
      {mayDiscard(person, draft).allowed ? (
        <form data-action="/api/changes/discard" data-reload="" data-confirm={t.discardConfirm}>
          {hidden}
          <button className="danger" type="submit" aria-describedby={about} disabled>
            {t.discard}
          </button>
        </form>
      ) : null}
    </div>
  )
}

/** One draft: its title and state, who wrote and approved it, its files, comments and actions. */
function DraftItem({
  person,
  listed,
  index,
}: {
  person: Person
  listed: ListedDraft
  index: number
}) {
  const { draft, files, title } = listed
  const language = person.language
  const t = MANAGE_TEXTS[language]
  const nameOf = useNameOf()
  const media = draft.id.startsWith(`${MEDIA_DRAFTS}/`)
  const deletion = draft.files.length > 0 && draft.deletes.length === draft.files.length
  const [collection = '', ...slug] = draft.id.split('/')
  return (
    <li id={changeAnchor(draft.id)}>
      <h2 id={`draft-${index}`}>
        {title ?? draft.id}
        {deletion ? ` (${t.deletion})` : ''}: {t.statuses[draft.status]}
      </h2>
      {title ? (
        <p className="draft-id">
          <code>{draft.id}</code>
        </p>
      ) : null}
      <p className="version">
        {t.versionSaved(
          shortVersion(draft.head),
          nameOf(draft.saved.by),
          berlinTime(draft.saved.at, language),
        )}
      </p>
      <p>
        {t.by} {draft.writers.map(nameOf).join(', ')}
        {draft.submission && draft.status !== 'draft'
          ? `; ${t.submittedBy(nameOf(draft.submission.by))}`
          : ''}
        {draft.approval && draft.status === 'pending_publish'
          ? `; ${t.approvedBy} ${nameOf(draft.approval.by)}`
          : ''}
      </p>
      <ul>
        {files.map((file, fileIndex) => (
          <FileItem
            key={file.path}
            draft={draft}
            file={file}
            id={`${index}-${fileIndex}`}
            person={person}
          />
        ))}
      </ul>
      {draft.comments.length > 0 ? (
        <ul>
          {draft.comments.map((comment) => (
            <li key={`${comment.at}-${comment.by}`}>
              {nameOf(comment.by)}, {berlinTime(comment.at, language)}: {comment.body}
            </li>
          ))}
        </ul>
      ) : null}
      {media ? null : (
        <p>
          <a href={`/admin/#/collections/${collection}/entries/${slug.join('/')}`}>
            {t.openInEditor}
          </a>
          {' · '}
          <a href={`/preview/${draft.id}`}>{t.previewSite}</a>
        </p>
      )}
      <Actions person={person} draft={draft} index={index} />
    </li>
  )
}

/** Every draft waiting to go live, with the actions the person's roles allow. */
export function changesPage(viewer: Viewer, drafts: readonly ListedDraft[]): string {
  const { person } = viewer
  const t = MANAGE_TEXTS[person.language]
  return renderScreen({
    language: person.language,
    title: t.changes,
    viewer,
    place: 'changes',
    wide: true,
    children: (
      <>
        <h1>{t.changes}</h1>
        <p>{t.changesIntro}</p>
        {drafts.length > 0 ? (
          <ul className="changes">
            {drafts.map((listed, index) => (
              <DraftItem key={listed.draft.id} person={person} listed={listed} index={index} />
            ))}
          </ul>
        ) : (
          <p>{t.noChanges}</p>
        )}
        <Status />
      </>
    ),
  })
}
