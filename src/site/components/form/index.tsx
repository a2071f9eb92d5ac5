/**
 * The forms visitors send: a mailing list's sign-up and a survey, drawn from their definition
 * in the page's language.
 *
 * Without script the form posts to the forms service like any HTML form, and the browser's own
 * checks (`required`, `type=email`) help first. With script the same rules as the service's
 * (`src/shared/forms/validate.ts`, loaded on first use) run before sending: errors appear
 * beside their fields and in a summary, focus moves to the first one, and success is a client
 * navigation to the form's success page.
 */
import { type FormEvent, useEffect, useRef, useState } from 'react'
import type { SectionOf } from '../../../content/schema/sections'
import {
  answerField,
  type FormDefinition,
  HONEYPOT_FIELD,
  MAX_EMAIL_LENGTH,
} from '../../../shared/forms/definition'
import {
  errorLine,
  type FieldError,
  FORM_MESSAGES,
  summaryText,
} from '../../../shared/forms/messages'
import { navigateTo } from '../../../shared/navigation'
import { buttonClass } from '../button'
import { Link } from '../link'
import { Section } from '../ui'
import { Choices, idOf, Marker, QuestionField } from './fields'
import styles from './styles.module.css'

type Status = { state: 'idle' } | { state: 'sending' } | { state: 'failed'; message: string }

/** The rules and the sending, loaded when the visitor first needs them. */
const loadClient = () => import('./client')

export function Form({ form }: { form: FormDefinition }) {
  const messages = FORM_MESSAGES[form.language]
  const ref = useRef<HTMLFormElement>(null)
  const [errors, setErrors] = useState<FieldError[]>([])
  const [status, setStatus] = useState<Status>({ state: 'idle' })
  const [submitted, setSubmitted] = useState(false)
  /** Set after an error is shown: focus moves there once it is rendered. */
  const focusField = useRef<string | undefined>(undefined)

  // With script, our checks (in the page's language) replace the browser's bubbles.
  useEffect(() => {
    if (ref.current) ref.current.noValidate = true
  }, [])

  /** Moves focus to a field: a group's first choice; the summary for what has no field. */
  function focusOn(field: string) {
    if (!ref.current) return
    const box = ref.current.querySelector<HTMLElement>(`#${CSS.escape(idOf(form, field))}`)
    const target = box?.tagName === 'FIELDSET' ? box.querySelector<HTMLElement>('input') : box
    const focused = target ?? ref.current.querySelector<HTMLElement>('[data-error-summary]')
    if (!focused) return
    // The whole field in view (label, hint and error above the input), below the header.
    const container = focused.closest<HTMLElement>('[data-field]') ?? focused
    container.scrollIntoView({ block: 'start' })
    focused.focus({ preventScroll: true })
  }

  useEffect(() => {
    const field = focusField.current
    if (field === undefined) return
    focusField.current = undefined
    focusOn(field)
  })

  const errorOf = (field: string) => errors.find((error) => error.field === field)

  async function check(): Promise<FieldError[]> {
    const element = ref.current
    if (!element) return []
    const client = await loadClient()
    return client.check(form, element)
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (status.state === 'sending') return
    setSubmitted(true)
    const element = event.currentTarget
    let client: Awaited<ReturnType<typeof loadClient>>
    try {
      client = await loadClient()
    } catch {
      // The rules could not load (offline, new deploy): let the browser send the form.
      element.submit()
      return
    }
    const found = client.check(form, element)
    setErrors(found)
    if (found.length > 0) {
      focusField.current = found[0]?.field
      setStatus({ state: 'idle' })
      return
    }
    setStatus({ state: 'sending' })
    const outcome = await client.send(form, element)
    if (outcome.kind === 'sent') {
      await navigateTo(outcome.redirect)
      setStatus({ state: 'idle' })
    } else if (outcome.kind === 'invalid') {
      setErrors(outcome.errors)
      focusField.current = outcome.errors[0]?.field
      setStatus({ state: 'idle' })
    } else {
      setStatus({ state: 'failed', message: messages.failed[outcome.reason] })
    }
  }

  // After the first attempt, errors follow the visitor's corrections as they type.
  async function onChange() {
    if (!submitted) return
    setErrors(await check())
  }

  const described = (...ids: (string | false | undefined)[]) =>
    ids.filter(Boolean).join(' ') || undefined

  const errorText = (field: string) => {
    const error = errorOf(field)
    return error ? (
      <p id={`${idOf(form, field)}-error`} className={styles.error}>
        <span className="visually-hidden">{messages.errorPrefix} </span>
        {messages.errors[error.code]}
      </p>
    ) : null
  }

  return (
    <form
      ref={ref}
      className={styles.form}
      method="post"
      action={form.action}
      onSubmit={onSubmit}
      onChange={onChange}
      // The rules load while the visitor fills the form in, so sending never waits for them.
      onFocus={() => void loadClient().catch(() => {})}
      data-form={form.id}
    >
      {errors.length > 0 && (
        <div className={styles.summary} data-error-summary="" tabIndex={-1}>
          <p className={styles.summaryTitle}>{summaryText(form.language, errors.length)}</p>
          <ul>
            {errors.map((error) => (
              <li key={error.field}>
                <a
                  href={`#${idOf(form, error.field)}`}
                  onClick={(event) => {
                    event.preventDefault()
                    focusOn(error.field)
                  }}
                >
                  {errorLine(form, error)}
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
      <input type="hidden" name="language" value={form.language} />
      <input type="hidden" name="version" value={form.version} />
      {form.kind === 'list' ? (
        <>
          <div className={styles.field} data-field="">
            <label className={styles.label} htmlFor={idOf(form, 'email')}>
              {messages.email} <Marker required messages={messages} />
            </label>
            <p id={`${idOf(form, 'email')}-hint`} className={styles.hint}>
              {messages.emailHint}
            </p>
            {errorText('email')}
            <input
              className={styles.input}
              id={idOf(form, 'email')}
              type="email"
              name="email"
              autoComplete="email"
              inputMode="email"
              spellCheck={false}
              required
              maxLength={MAX_EMAIL_LENGTH}
              aria-invalid={errorOf('email') ? true : undefined}
              aria-describedby={described(
                `${idOf(form, 'email')}-hint`,
                errorOf('email') && `${idOf(form, 'email')}-error`,
              )}
            />
          </div>
          {form.topics && (
            <Choices
              form={form}
              name="topics"
              legend={form.topics.legend}
              type="checkbox"
              required
              options={form.topics.options}
              messages={messages}
              error={errorText('topics')}
              invalid={Boolean(errorOf('topics'))}
            />
          )}
          <div className={styles.field} data-field="">
            {errorText('consent')}
            <div className={styles.choice}>
              <input
                id={idOf(form, 'consent')}
                type="checkbox"
                name="consent"
                value="yes"
                required
                aria-invalid={errorOf('consent') ? true : undefined}
                aria-describedby={described(errorOf('consent') && `${idOf(form, 'consent')}-error`)}
              />
              <label htmlFor={idOf(form, 'consent')}>
                {form.consent} <Marker required messages={messages} />
              </label>
            </div>
          </div>
          <p className={styles.hint}>
            {messages.privacy}{' '}
            <Link href={`/${form.language}/privacy-policy/`}>{messages.privacyLink}</Link>.
          </p>
        </>
      ) : (
        form.questions.map((question) => (
          <QuestionField
            key={question.id}
            form={form}
            question={question}
            messages={messages}
            error={errorText(answerField(question.id))}
            invalid={Boolean(errorOf(answerField(question.id)))}
          />
        ))
      )}
      {/* Hidden from people (and their screen readers); bots fill it in. */}
      <div className={styles.trap}>
        <label>
          Website
          <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" />
        </label>
      </div>
      <div className={styles.actions}>
        <button
          className={buttonClass('primary', styles.submit)}
          type="submit"
          aria-disabled={status.state === 'sending'}
        >
          {form.submit}
        </button>
        <p className={styles.status} role="status">
          {status.state === 'sending' ? messages.sending : ''}
        </p>
      </div>
      {status.state === 'failed' && (
        <p className={styles.failure} role="alert">
          {status.message}
        </p>
      )}
    </form>
  )
}

/** A `form` section: its heading and introduction, then the form in the page's language. */
export function FormSection({
  section,
}: {
  section: SectionOf<'form'> & { definition?: FormDefinition }
}) {
  if (!section.definition) return null
  return (
    <Section heading={section.heading} intro={section.intro} className={styles.section}>
      <Form form={section.definition} />
    </Section>
  )
}
