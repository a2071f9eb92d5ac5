/**
 * A draft's change as the page of changes shows it: field by field, the live value beside the
 * draft's, the changed words marked so that they read without colour too (struck through and
 * underlined, and named to screen readers), long texts wrapped, images as images. The data is
 * `review/compare.ts`'s; this is only its view.
 */
import type { ReactNode } from 'react'
import type { EditorLanguage } from '../people/roles'
import type { FieldChange, FileReview, ParagraphChange, Segment } from '../review/compare'

export const REVIEW_TEXTS = {
  en: {
    before: 'Live now',
    after: 'In this draft',
    added: 'added',
    removed: 'removed',
    changed: 'changed',
    addedWords: 'added:',
    removedWords: 'removed:',
    endOf: 'end of change',
    empty: '(empty)',
    noFieldChanges: 'No field of this file changes: the save only wrote it in another form.',
    unreadable: (reason: string) =>
      `This file cannot be read as content (${reason}); the build will refuse it.`,
    imageAlt: (which: string, path: string) => `${which}: ${path}`,
    fields: (count: number) => (count === 1 ? '1 field changes' : `${count} fields change`),
  },
  de: {
    before: 'Jetzt veröffentlicht',
    after: 'In diesem Entwurf',
    added: 'neu',
    removed: 'entfernt',
    changed: 'geändert',
    addedWords: 'hinzugefügt:',
    removedWords: 'entfernt:',
    endOf: 'Ende der Änderung',
    empty: '(leer)',
    noFieldChanges:
      'Kein Feld dieser Datei ändert sich: Beim Speichern wurde sie nur anders geschrieben.',
    unreadable: (reason: string) =>
      `Diese Datei ist kein lesbarer Inhalt (${reason}); der Build wird sie ablehnen.`,
    imageAlt: (which: string, path: string) => `${which}: ${path}`,
    fields: (count: number) => (count === 1 ? '1 Feld ändert sich' : `${count} Felder ändern sich`),
  },
}
type Texts = (typeof REVIEW_TEXTS)[EditorLanguage]

/** Where an image field's value is shown from: the live site, or the draft. */
export interface ImageSources {
  before(value: string): string
  after(value: string): string
}

/** Runs of text with the changed ones marked, and named for screen readers. */
function Marked({ segments, t }: { segments: readonly Segment[] | undefined; t: Texts }) {
  if (!segments || segments.length === 0) return <span className="none">{t.empty}</span>
  return (
    <>
      {segments.map((segment, index) => {
        if (segment.kind === 'same') return segment.text
        const said = segment.kind === 'added' ? t.addedWords : t.removedWords
        const Tag = segment.kind === 'added' ? 'ins' : 'del'
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the runs of one text, in order
          <Tag key={index}>
            <span className="sr-only">[{said} </span>
            {segment.text}
            <span className="sr-only"> {t.endOf}]</span>
          </Tag>
        )
      })}
    </>
  )
}

/** The live value beside the draft's (either alone where the field comes or goes). */
function SideBySide({ before, after, t }: { before: ReactNode; after: ReactNode; t: Texts }) {
  return (
    <div className="compare">
      {before === undefined ? null : (
        <div className="before">
          <p className="side">{t.before}</p>
          {before}
        </div>
      )}
      {after === undefined ? null : (
        <div className="after">
          <p className="side">{t.after}</p>
          {after}
        </div>
      )}
    </div>
  )
}

/** An image field's value: the image, on the live site or in the draft. */
function image(
  path: string | undefined,
  which: string,
  source: (value: string) => string,
  t: Texts,
) {
  if (path === undefined) return undefined
  return (
    <figure>
      <img src={source(path)} alt={t.imageAlt(which, path)} loading="lazy" />
      <figcaption>
        <code>{path}</code>
      </figcaption>
    </figure>
  )
}

const text = (content: ReactNode) => <p className="text">{content}</p>

function Paragraph({ change, t }: { change: ParagraphChange; t: Texts }) {
  return (
    <SideBySide
      before={change.before && text(<Marked segments={change.before} t={t} />)}
      after={change.after && text(<Marked segments={change.after} t={t} />)}
      t={t}
    />
  )
}

function Field({ change, t, images }: { change: FieldChange; t: Texts; images: ImageSources }) {
  let body: ReactNode
  switch (change.kind) {
    case 'image':
      body = (
        <SideBySide
          before={image(change.before, t.before, images.before, t)}
          after={image(change.after, t.after, images.after, t)}
          t={t}
        />
      )
      break
    case 'paragraphs':
      body = (change.paragraphs ?? []).map((each, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the paragraphs of one field, in order
        <Paragraph key={index} change={each} t={t} />
      ))
      break
    case 'text':
      body = (
        <SideBySide
          before={
            change.before === undefined
              ? undefined
              : text(<Marked segments={change.words?.before} t={t} />)
          }
          after={
            change.after === undefined
              ? undefined
              : text(<Marked segments={change.words?.after} t={t} />)
          }
          t={t}
        />
      )
      break
    default:
      body = (
        <SideBySide
          before={change.before === undefined ? undefined : text(<del>{change.before}</del>)}
          after={change.after === undefined ? undefined : text(<ins>{change.after}</ins>)}
          t={t}
        />
      )
  }
  return (
    <section className="field-change">
      <h4>
        {change.label} <span className="kind">({t[change.change]})</span>
      </h4>
      {body}
    </section>
  )
}

/**
 * A content file's changed fields. `images` makes an image field's address one the page can
 * show: the live site's image, or the draft's own.
 */
export function FileReviewView({
  review,
  language,
  images,
}: {
  review: FileReview
  language: EditorLanguage
  images: ImageSources
}) {
  const t = REVIEW_TEXTS[language]
  if (review.unreadable !== undefined) {
    return <p className="notice">{t.unreadable(review.unreadable)}</p>
  }
  if (review.fields.length === 0) return <p>{t.noFieldChanges}</p>
  return (
    <>
      <p className="count">{t.fields(review.fields.length)}</p>
      {review.fields.map((change, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the fields of one file, in order
        <Field key={index} change={change} t={t} images={images} />
      ))}
    </>
  )
}
