/**
 * A draft's change as the page of changes shows it: field by field, the live value beside the
 * draft's, the changed words marked so that they read without colour too (struck through and
 * underlined, and named to screen readers), long texts wrapped, images as images. The data is
 * `review/compare.ts`'s; this is only its HTML.
 */
import { escapeHtml } from '../../shared/html'
import type { EditorLanguage } from '../people/roles'
import type { FieldChange, FileReview, ParagraphChange, Segment } from '../review/compare'

const TEXTS = {
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
type Texts = (typeof TEXTS)[EditorLanguage]

/** Runs of text with the changed ones marked, and named for screen readers. */
function marked(segments: readonly Segment[] | undefined, t: Texts): string {
  if (!segments || segments.length === 0) return `<span class="none">${t.empty}</span>`
  return segments
    .map((segment) => {
      const text = escapeHtml(segment.text)
      if (segment.kind === 'same') return text
      const [tag, said] = segment.kind === 'added' ? ['ins', t.addedWords] : ['del', t.removedWords]
      return `<${tag}><span class="sr-only">[${said} </span>${text}<span class="sr-only"> ${t.endOf}]</span></${tag}>`
    })
    .join('')
}

/** The live value beside the draft's (either alone where the field comes or goes). */
const sideBySide = (before: string | undefined, after: string | undefined, t: Texts) =>
  `<div class="compare">${before === undefined ? '' : `<div class="before"><p class="side">${t.before}</p>${before}</div>`}${after === undefined ? '' : `<div class="after"><p class="side">${t.after}</p>${after}</div>`}</div>`

/** An image field's value: the image, on the live site or in the draft. */
function image(
  path: string | undefined,
  which: string,
  source: (value: string) => string,
  t: Texts,
): string | undefined {
  if (path === undefined) return undefined
  return `<figure><img src="${escapeHtml(source(path))}" alt="${escapeHtml(t.imageAlt(which, path))}" loading="lazy"><figcaption><code>${escapeHtml(path)}</code></figcaption></figure>`
}

function paragraph(change: ParagraphChange, t: Texts): string {
  return sideBySide(
    change.before && `<p class="text">${marked(change.before, t)}</p>`,
    change.after && `<p class="text">${marked(change.after, t)}</p>`,
    t,
  )
}

function field(
  change: FieldChange,
  t: Texts,
  images: { before(value: string): string; after(value: string): string },
): string {
  const heading = `<h4>${escapeHtml(change.label)} <span class="kind">(${t[change.change]})</span></h4>`
  let body: string
  switch (change.kind) {
    case 'image':
      body = sideBySide(
        image(change.before, t.before, images.before, t),
        image(change.after, t.after, images.after, t),
        t,
      )
      break
    case 'paragraphs':
      body = (change.paragraphs ?? []).map((each) => paragraph(each, t)).join('')
      break
    case 'text':
      body = sideBySide(
        change.before === undefined
          ? undefined
          : `<p class="text">${marked(change.words?.before, t)}</p>`,
        change.after === undefined
          ? undefined
          : `<p class="text">${marked(change.words?.after, t)}</p>`,
        t,
      )
      break
    default:
      body = sideBySide(
        change.before === undefined
          ? undefined
          : `<p class="text"><del>${escapeHtml(change.before)}</del></p>`,
        change.after === undefined
          ? undefined
          : `<p class="text"><ins>${escapeHtml(change.after)}</ins></p>`,
        t,
      )
  }
  return `<section class="field-change">${heading}${body}</section>`
}

/**
 * A content file's changed fields. `images` makes an image field's address one the page can
 * show: the live site's image, or the draft's own.
 */
export function fileReviewHtml(
  review: FileReview,
  language: EditorLanguage,
  images: { before(value: string): string; after(value: string): string },
): string {
  const t = TEXTS[language]
  if (review.unreadable !== undefined) {
    return `<p class="notice">${escapeHtml(t.unreadable(review.unreadable))}</p>`
  }
  if (review.fields.length === 0) return `<p>${t.noFieldChanges}</p>`
  return `<p class="count">${t.fields(review.fields.length)}</p>${review.fields
    .map((change) => field(change, t, images))
    .join('')}`
}
