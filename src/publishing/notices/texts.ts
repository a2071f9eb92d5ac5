/**
 * The notices' e-mails in English and German: a subject and a plain text, naming the draft by
 * its id and the person who acted, with a link to where the reader acts. Nothing of the draft's
 * content is in them but its id (and, for a draft sent back, the reviewer's comment, which is
 * written for its authors).
 */
import type { EditorLanguage } from '../people/roles'

/** What happened, as the reader of a notice is concerned. */
export type NoticeKind =
  /** A draft is in review, and the reader may approve it. */
  | 'review'
  /** The reader's draft was approved. */
  | 'approved'
  /** A draft was approved, and the reader may publish it. */
  | 'publish'
  /** The reader's draft was sent back (with the reviewer's comment, if there is one). */
  | 'sent-back'
  /** The reader's draft (written or approved) was published. */
  | 'published'
  /** A publication of the reader's draft, or one they set, was cancelled. */
  | 'schedule-cancelled'

export const NOTICE_KINDS: readonly NoticeKind[] = [
  'review',
  'approved',
  'publish',
  'sent-back',
  'published',
  'schedule-cancelled',
]

export interface NoticeFacts {
  /** The draft's id (`pages/about`). */
  draft: string
  /** Who acted: a name and address, or the service itself. */
  actor: string
  /** Where the reader acts or looks. */
  link: string
  /** Where the reader turns these e-mails off. */
  settings: string
  /** The reviewer's comment, for a draft sent back. */
  comment?: string
  /** The planned time of a cancelled schedule (Berlin time, as the reader reads it). */
  at?: string
  /** Why a schedule was cancelled, when it was not a person's choice. */
  reason?: string
}

interface NoticeText {
  subject: string
  body: string
}

const quoted = (text: string) =>
  text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n')

const TEXTS: Record<EditorLanguage, Record<NoticeKind, (facts: NoticeFacts) => NoticeText>> = {
  en: {
    review: (f) => ({
      subject: `Waiting for your review: ${f.draft}`,
      body: `${f.actor} moved the draft ${f.draft} to review. You wrote none of it, so you may approve it or send it back.\n\nOpen it on the page of changes:\n${f.link}`,
    }),
    approved: (f) => ({
      subject: `Your draft was approved: ${f.draft}`,
      body: `${f.actor} approved your draft ${f.draft}. A publisher who wrote none of it can publish it now.\n\nSee it on the page of changes:\n${f.link}`,
    }),
    publish: (f) => ({
      subject: `Ready for you to publish: ${f.draft}`,
      body: `${f.actor} approved the draft ${f.draft}. You wrote none of it, so you may publish it now or at a set time.\n\nOpen it on the page of changes:\n${f.link}`,
    }),
    'sent-back': (f) => ({
      subject: `Your draft was sent back: ${f.draft}`,
      body: `${f.actor} sent your draft ${f.draft} back to you.${f.comment ? ` The comment:\n\n${quoted(f.comment)}` : ''}\n\nChange it in the editor and move it to review again when it is ready:\n${f.link}`,
    }),
    published: (f) => ({
      subject: `Published: ${f.draft}`,
      body: `${f.actor} published the draft ${f.draft}: it is live now.\n\nThe releases, with what each changed:\n${f.link}`,
    }),
    'schedule-cancelled': (f) => ({
      subject: `Publication cancelled: ${f.draft}`,
      body: `${f.actor} cancelled the publication of ${f.draft} planned for ${f.at ?? 'later'}.${f.reason ? ` The reason: ${f.reason}` : ''} It will not go live then.\n\nThe draft on the page of changes:\n${f.link}`,
    }),
  },
  de: {
    review: (f) => ({
      subject: `Wartet auf Ihre Prüfung: ${f.draft}`,
      body: `${f.actor} hat den Entwurf ${f.draft} zur Prüfung gegeben. Sie haben nicht daran mitgeschrieben und dürfen ihn deshalb freigeben oder zurückgeben.\n\nÖffnen Sie ihn auf der Seite der Änderungen:\n${f.link}`,
    }),
    approved: (f) => ({
      subject: `Ihr Entwurf wurde freigegeben: ${f.draft}`,
      body: `${f.actor} hat Ihren Entwurf ${f.draft} freigegeben. Jetzt kann ihn jemand mit der Rolle „Veröffentlichung“ veröffentlichen, die oder der nicht daran mitgeschrieben hat.\n\nSie finden ihn auf der Seite der Änderungen:\n${f.link}`,
    }),
    publish: (f) => ({
      subject: `Bereit für Ihre Veröffentlichung: ${f.draft}`,
      body: `${f.actor} hat den Entwurf ${f.draft} freigegeben. Sie haben nicht daran mitgeschrieben und dürfen ihn deshalb jetzt oder zu einem festen Zeitpunkt veröffentlichen.\n\nÖffnen Sie ihn auf der Seite der Änderungen:\n${f.link}`,
    }),
    'sent-back': (f) => ({
      subject: `Ihr Entwurf wurde zurückgegeben: ${f.draft}`,
      body: `${f.actor} hat Ihren Entwurf ${f.draft} an Sie zurückgegeben.${f.comment ? ` Der Kommentar:\n\n${quoted(f.comment)}` : ''}\n\nÄndern Sie ihn im Editor und geben Sie ihn erneut zur Prüfung, wenn er bereit ist:\n${f.link}`,
    }),
    published: (f) => ({
      subject: `Veröffentlicht: ${f.draft}`,
      body: `${f.actor} hat den Entwurf ${f.draft} veröffentlicht: Er ist jetzt live.\n\nDie Veröffentlichungen, mit dem, was jede geändert hat:\n${f.link}`,
    }),
    'schedule-cancelled': (f) => ({
      subject: `Veröffentlichung abgesagt: ${f.draft}`,
      body: `${f.actor} hat die für ${f.at ?? 'später'} geplante Veröffentlichung von ${f.draft} abgesagt.${f.reason ? ` Der Grund: ${f.reason}` : ''} Sie geht dann nicht live.\n\nDer Entwurf auf der Seite der Änderungen:\n${f.link}`,
    }),
  },
}

const FOOTER: Record<EditorLanguage, (settings: string) => string> = {
  en: (settings) =>
    `\n\n-- \nLumora Bank publishing service. You get these e-mails because you work on the website; turn them off (or on again) on the service's start page: ${settings}`,
  de: (settings) =>
    `\n\n-- \nVeröffentlichungsdienst der Lumora Bank. Sie erhalten diese E-Mails, weil Sie an der Website arbeiten; auf der Startseite des Dienstes schalten Sie sie ab (oder wieder an): ${settings}`,
}

/** How the service names itself where it acted alone (a schedule it cancelled). */
export const SERVICE_NAME: Record<EditorLanguage, string> = {
  en: 'The publishing service',
  de: 'Der Veröffentlichungsdienst',
}

/** A notice's subject and plain text in `language`. */
export function noticeText(
  language: EditorLanguage,
  kind: NoticeKind,
  facts: NoticeFacts,
): NoticeText {
  const text = TEXTS[language][kind](facts)
  return { subject: text.subject, body: `${text.body}${FOOTER[language](facts.settings)}` }
}
