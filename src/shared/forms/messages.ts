/**
 * What the forms say to visitors, in every language: field errors (by code), the error
 * summary and the states of sending. The browser and the forms service (for visitors
 * without script) use the same words.
 */
import type { Language } from '../languages'
import { answerField, type FormDefinition } from './definition'

export const ERROR_CODES = [
  'required',
  'email',
  'emailDomain',
  'tooLong',
  'choice',
  'chooseOne',
  'consent',
  'number',
  'outdated',
  'unknown',
  'invalid',
] as const
export type ErrorCode = (typeof ERROR_CODES)[number]

/** One problem with one field; `field` is the input's name. */
export interface FieldError {
  field: string
  code: ErrorCode
}

interface Messages {
  errors: Record<ErrorCode, string>
  /** Read before each field's error by screen readers. */
  errorPrefix: string
  /** Above the list of errors; `{count}` is their number. */
  summaryOne: string
  summaryMany: string
  email: string
  emailHint: string
  required: string
  optional: string
  sending: string
  /** The hint of a text answer: how long it may be, `{count}` characters (`textLength`). */
  maxLength: string
  /** Reasons a form could not be sent at all. */
  failed: {
    network: string
    rateLimited: string
    mail: string
    server: string
    /** The database cannot be reached: nothing was stored. */
    unavailable: string
    /** A form posted from another website (a hostile page posting for its visitors). */
    crossSite: string
  }
  privacy: string
  privacyLink: string
  /** The page shown to visitors without script when the form needs correcting. */
  errorPage: { title: string; back: string; backHint: string }
  /** The page of an e-mail's confirmation link: one button that confirms. */
  confirmPage: { title: string; lead: string }
  /** The page of an e-mail's unsubscribe link: one button that unsubscribes. */
  unsubscribePage: { title: string; lead: string; button: string }
}

export const FORM_MESSAGES: Record<Language, Messages> = {
  en: {
    errors: {
      required: 'Please fill in this field.',
      email: 'Please enter a valid e-mail address, such as name@example.com.',
      emailDomain:
        'We cannot send e-mails to this domain: it is reserved for tests or local networks. Please enter another address.',
      tooLong: 'Please shorten this answer.',
      choice: 'Please choose one of the answers offered.',
      chooseOne: 'Please choose at least one.',
      consent: 'Please confirm that you agree, so that we may send you e-mails.',
      number: 'Please choose a value on the scale.',
      outdated: 'This form has changed since the page was loaded. Please reload the page.',
      unknown: 'This field is not part of the form.',
      invalid: 'Please check this field.',
    },
    errorPrefix: 'Error:',
    summaryOne: 'Please correct 1 entry:',
    summaryMany: 'Please correct {count} entries:',
    email: 'E-mail address',
    emailHint: 'We only use it for these e-mails.',
    required: 'required',
    optional: 'optional',
    sending: 'Sending …',
    maxLength: 'At most {count} characters.',
    failed: {
      network: 'The form could not be sent. Please check your connection and try again.',
      rateLimited: 'Too many attempts from your connection. Please wait a few minutes.',
      mail: 'We could not send the confirmation e-mail right now. Please try again in a few minutes.',
      server: 'Something went wrong on our side. Please try again later.',
      unavailable:
        'The service is unavailable right now; nothing was stored. Please try again in a few minutes.',
      crossSite:
        'This form can only be sent from our website. Please open it on our website and send it there.',
    },
    privacy: 'How we process your data is explained in our',
    privacyLink: 'privacy policy',
    errorPage: {
      title: 'Please check your entries',
      back: 'Back to the form',
      backHint: "Your browser's Back button returns to the form with your entries kept.",
    },
    confirmPage: {
      title: 'Confirm your subscription',
      lead: 'One more click and you will receive the {list}. You can unsubscribe at any time with the link in every e-mail.',
    },
    unsubscribePage: {
      title: 'Unsubscribe',
      lead: 'Press the button and you will no longer receive the {list}. You can sign up again at any time.',
      button: 'Unsubscribe',
    },
  },
  de: {
    errors: {
      required: 'Bitte füllen Sie dieses Feld aus.',
      email: 'Bitte geben Sie eine gültige E-Mail-Adresse ein, zum Beispiel name@beispiel.de.',
      emailDomain:
        'An diese Domain können wir keine E-Mails senden: Sie ist für Tests oder lokale Netze reserviert. Bitte geben Sie eine andere Adresse ein.',
      tooLong: 'Bitte kürzen Sie diese Antwort.',
      choice: 'Bitte wählen Sie eine der angebotenen Antworten.',
      chooseOne: 'Bitte wählen Sie mindestens eine Option.',
      consent: 'Bitte bestätigen Sie Ihre Einwilligung, damit wir Ihnen E-Mails senden dürfen.',
      number: 'Bitte wählen Sie einen Wert auf der Skala.',
      outdated:
        'Das Formular wurde geändert, seit die Seite geladen wurde. Bitte laden Sie die Seite neu.',
      unknown: 'Dieses Feld gehört nicht zum Formular.',
      invalid: 'Bitte prüfen Sie dieses Feld.',
    },
    errorPrefix: 'Fehler:',
    summaryOne: 'Bitte korrigieren Sie 1 Angabe:',
    summaryMany: 'Bitte korrigieren Sie {count} Angaben:',
    email: 'E-Mail-Adresse',
    emailHint: 'Wir verwenden sie nur für diese E-Mails.',
    required: 'Pflichtfeld',
    optional: 'optional',
    sending: 'Wird gesendet …',
    maxLength: 'Höchstens {count} Zeichen.',
    failed: {
      network:
        'Das Formular konnte nicht gesendet werden. Bitte prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
      rateLimited: 'Zu viele Versuche von Ihrer Verbindung. Bitte warten Sie einige Minuten.',
      mail: 'Wir konnten die Bestätigungs-E-Mail gerade nicht senden. Bitte versuchen Sie es in einigen Minuten erneut.',
      server: 'Bei uns ist etwas schiefgegangen. Bitte versuchen Sie es später erneut.',
      unavailable:
        'Der Dienst ist gerade nicht erreichbar; es wurde nichts gespeichert. Bitte versuchen Sie es in einigen Minuten erneut.',
      crossSite:
        'Dieses Formular kann nur auf unserer Website gesendet werden. Bitte öffnen Sie es dort und senden Sie es erneut.',
    },
    privacy: 'Wie wir Ihre Daten verarbeiten, erklärt unsere',
    privacyLink: 'Datenschutzerklärung',
    errorPage: {
      title: 'Bitte prüfen Sie Ihre Angaben',
      back: 'Zurück zum Formular',
      backHint:
        'Mit der Zurück-Taste Ihres Browsers kehren Sie mit Ihren Angaben zum Formular zurück.',
    },
    confirmPage: {
      title: 'Anmeldung bestätigen',
      lead: 'Noch ein Klick, und Sie erhalten: {list}. Abmelden können Sie sich jederzeit über den Link in jeder E-Mail.',
    },
    unsubscribePage: {
      title: 'Abmelden',
      lead: 'Mit einem Klick auf die Schaltfläche melden Sie sich ab von: {list}. Sie können sich jederzeit wieder anmelden.',
      button: 'Abmelden',
    },
  },
}

export const summaryText = (language: Language, count: number) =>
  count === 1
    ? FORM_MESSAGES[language].summaryOne
    : FORM_MESSAGES[language].summaryMany.replace('{count}', String(count))

/** What a field is called on its form (for error lists); undefined for hidden fields. */
export function fieldLabel(form: FormDefinition, field: string): string | undefined {
  if (form.kind === 'list') {
    if (field === 'email') return FORM_MESSAGES[form.language].email
    if (field === 'topics') return form.topics?.legend
    return undefined
  }
  return form.questions.find((question) => answerField(question.id) === field)?.label
}

/** One error as a line of the summary: "Label: message", or the message alone. */
export function errorLine(form: FormDefinition, error: FieldError): string {
  const label = fieldLabel(form, error.field)
  const message = FORM_MESSAGES[form.language].errors[error.code]
  return label ? `${label}: ${message}` : message
}
