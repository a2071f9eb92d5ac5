/**
 * A survey's text answer on the page: its hint says how many characters it may hold, counted
 * as the service counts them, and no `maxlength` cuts it in UTF-16 units (an emoji is two).
 */
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { SurveyForm } from '../../../../../src/shared/forms/definition'
import { FORM_MESSAGES } from '../../../../../src/shared/forms/messages'
import { validateSubmission } from '../../../../../src/shared/forms/validate'
import { QuestionField } from '../../../../../src/site/components/form/fields'

const question = {
  type: 'text',
  id: 'note',
  label: 'Note',
  required: false,
  maxLength: 12,
} as const
const form: SurveyForm = {
  kind: 'survey',
  id: 'survey',
  language: 'de',
  name: 'Umfrage',
  version: '1',
  questions: [question],
  submit: 'Senden',
  action: '/api/forms/survey',
  successPath: '/de/survey-success/',
}

describe('a text answer’s field', () => {
  it('states its length in characters and leaves counting to the shared check', () => {
    const html = renderToStaticMarkup(
      <QuestionField
        form={form}
        question={question}
        messages={FORM_MESSAGES.de}
        error={null}
        invalid={false}
      />,
    )
    expect(html).toContain('Höchstens 12 Zeichen.')
    expect(html).not.toMatch(/maxlength/i)
    expect(html).toMatch(/aria-describedby="survey-answers-note-hint"/)
    // Twelve emoji are twelve characters: what the hint promises, the check accepts.
    const answers = { 'answers.note': '🙂'.repeat(12), version: '1', language: 'de' }
    expect(validateSubmission(form, answers).ok).toBe(true)
  })
})
