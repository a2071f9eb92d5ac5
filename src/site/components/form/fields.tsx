/**
 * The fields of a form: a group of choices, a survey's question of each type, and the marker
 * of required and optional fields. Ids derive from the form and the field's name, so the form
 * finds a field again to show its error and move focus to it.
 */
import type { ReactNode } from 'react'
import { answerField, type FormDefinition, type Question } from '../../../shared/forms/definition'
import type { FORM_MESSAGES } from '../../../shared/forms/messages'
import styles from './styles.module.css'

/** Input ids: unique per form, derived from the field's name. */
export const idOf = (form: FormDefinition, field: string) =>
  `${form.id}-${field.replace(/[^a-z0-9-]/gi, '-')}`

export type Messages = (typeof FORM_MESSAGES)['en']

export function Marker({ required, messages }: { required: boolean; messages: Messages }) {
  return <span className={styles.marker}>({required ? messages.required : messages.optional})</span>
}

export function Choices({
  form,
  name,
  legend,
  type,
  required,
  options,
  messages,
  hint,
  error,
  invalid,
}: {
  form: FormDefinition
  name: string
  legend: string
  type: 'checkbox' | 'radio'
  required: boolean
  options: { id: string; label: string }[]
  messages: Messages
  hint?: string
  error: ReactNode
  invalid: boolean
}) {
  const id = idOf(form, name)
  return (
    <fieldset
      className={styles.fieldset}
      data-field=""
      id={id}
      aria-describedby={
        [hint && `${id}-hint`, invalid && `${id}-error`].filter(Boolean).join(' ') || undefined
      }
    >
      <legend className={styles.label}>
        {legend} <Marker required={required} messages={messages} />
      </legend>
      {hint && (
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      )}
      {error}
      {options.map((option) => (
        <div key={option.id} className={styles.choice}>
          <input
            id={`${id}-${option.id}`}
            type={type}
            name={name}
            value={option.id}
            // A required radio group needs one answer; checkboxes are checked by our rules.
            required={type === 'radio' && required}
            aria-invalid={invalid ? true : undefined}
          />
          <label htmlFor={`${id}-${option.id}`}>{option.label}</label>
        </div>
      ))}
    </fieldset>
  )
}

export function QuestionField({
  form,
  question,
  messages,
  error,
  invalid,
}: {
  form: FormDefinition
  question: Question
  messages: Messages
  error: ReactNode
  invalid: boolean
}) {
  const name = answerField(question.id)
  const id = idOf(form, name)
  switch (question.type) {
    case 'single':
    case 'multiple':
      return (
        <Choices
          form={form}
          name={name}
          legend={question.label}
          type={question.type === 'single' ? 'radio' : 'checkbox'}
          required={question.required}
          options={question.options}
          messages={messages}
          hint={question.hint}
          error={error}
          invalid={invalid}
        />
      )
    case 'scale': {
      const values = Array.from(
        { length: question.max - question.min + 1 },
        (_, index) => question.min + index,
      )
      return (
        <fieldset
          className={styles.fieldset}
          data-field=""
          id={id}
          aria-describedby={[`${id}-ends`, question.hint && `${id}-hint`, invalid && `${id}-error`]
            .filter(Boolean)
            .join(' ')}
        >
          <legend className={styles.label}>
            {question.label} <Marker required={question.required} messages={messages} />
          </legend>
          {question.hint && (
            <p id={`${id}-hint`} className={styles.hint}>
              {question.hint}
            </p>
          )}
          <p id={`${id}-ends`} className={styles.hint}>
            {question.min} = {question.minLabel}, {question.max} = {question.maxLabel}
          </p>
          {error}
          <div className={styles.scale}>
            {values.map((value) => (
              <div key={value} className={styles.scaleValue}>
                <input
                  id={`${id}-${value}`}
                  type="radio"
                  name={name}
                  value={value}
                  required={question.required}
                  aria-invalid={invalid ? true : undefined}
                />
                <label htmlFor={`${id}-${value}`}>{value}</label>
              </div>
            ))}
          </div>
        </fieldset>
      )
    }
    case 'text':
      return (
        <div className={styles.field} data-field="">
          <label className={styles.label} htmlFor={id}>
            {question.label} <Marker required={question.required} messages={messages} />
          </label>
          <p id={`${id}-hint`} className={styles.hint}>
            {question.hint && `${question.hint} `}
            {messages.maxLength.replace('{count}', String(question.maxLength))}
          </p>
          {error}
          {/* No maxLength attribute: browsers count it in UTF-16 units (an emoji is two), the
              service in characters (textLength); the check before sending counts as it does. */}
          <textarea
            className={styles.input}
            id={id}
            name={name}
            rows={5}
            required={question.required}
            aria-invalid={invalid ? true : undefined}
            aria-describedby={[`${id}-hint`, invalid && `${id}-error`].filter(Boolean).join(' ')}
          />
        </div>
      )
  }
}
