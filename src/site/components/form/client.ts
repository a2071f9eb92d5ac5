/**
 * The part of a form that only runs in the browser, loaded on first use: reading the form,
 * checking it with the forms service's own rules, and sending it as JSON.
 */
import { answerField, type FormDefinition } from '../../../shared/forms/definition'
import type { FieldError } from '../../../shared/forms/messages'
import { responseSchema, validateSubmission } from '../../../shared/forms/validate'

export type SendOutcome =
  | { kind: 'sent'; redirect: string }
  | { kind: 'invalid'; errors: FieldError[] }
  | {
      kind: 'failed'
      reason: 'network' | 'rateLimited' | 'mail' | 'server' | 'unavailable' | 'crossSite'
    }

/** Fields that hold several values (checkboxes): always sent as a list. */
function multiFields(form: FormDefinition): Set<string> {
  if (form.kind === 'list') return new Set(form.topics ? ['topics'] : [])
  return new Set(
    form.questions
      .filter((question) => question.type === 'multiple')
      .map((question) => answerField(question.id)),
  )
}

/** The form's values as the service expects them: one value as text, checkboxes as lists. */
export function valuesOf(form: FormDefinition, element: HTMLFormElement): Record<string, unknown> {
  const data = new FormData(element)
  const multi = multiFields(form)
  const values: Record<string, unknown> = {}
  for (const name of new Set(data.keys())) {
    const all = data.getAll(name).map(String)
    values[name] = multi.has(name) ? all : all[0]
  }
  return values
}

export function check(form: FormDefinition, element: HTMLFormElement): FieldError[] {
  const result = validateSubmission(form, valuesOf(form, element))
  return result.ok ? [] : result.errors
}

export async function send(form: FormDefinition, element: HTMLFormElement): Promise<SendOutcome> {
  let response: Response
  try {
    response = await fetch(form.action, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(valuesOf(form, element)),
    })
  } catch {
    return { kind: 'failed', reason: 'network' }
  }
  let parsed: ReturnType<typeof responseSchema.safeParse>
  try {
    parsed = responseSchema.safeParse(await response.json())
  } catch {
    return { kind: 'failed', reason: response.status === 429 ? 'rateLimited' : 'server' }
  }
  if (!parsed.success) return { kind: 'failed', reason: 'server' }
  const body = parsed.data
  if (body.ok) return { kind: 'sent', redirect: body.redirect }
  if ('errors' in body) return { kind: 'invalid', errors: body.errors }
  return {
    kind: 'failed',
    reason:
      body.reason === 'rateLimited' ||
      body.reason === 'mail' ||
      body.reason === 'unavailable' ||
      body.reason === 'crossSite'
        ? body.reason
        : 'server',
  }
}
