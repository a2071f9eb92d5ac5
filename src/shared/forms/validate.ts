/**
 * The request and response schemas of the forms (zod mini: small enough for the browser).
 * The page validates with them before sending, the forms service again on arrival, so a
 * visitor sees the same errors with and without script, and nothing unchecked is stored.
 *
 * Every field's failure carries an error code (`required`, `email`, …); `messages.ts` says it
 * in the visitor's language.
 */
import * as z from 'zod/mini'
import { LANGUAGES, type Language } from '../languages'
import {
  answerField,
  type FormDefinition,
  HONEYPOT_FIELD,
  type ListForm,
  MAX_EMAIL_LENGTH,
  type Question,
  type SurveyForm,
} from './definition'
import { hasValidLabels, isReservedDomain } from './domain'
import { ERROR_CODES, type ErrorCode, type FieldError } from './messages'

const fail = (code: ErrorCode) => ({ error: code, abort: true })

/**
 * True when `text` holds a control character other than tab and line breaks: C0, DEL, or C1
 * (U+0080–U+009F, which no keyboard types: NEL breaks lines where a CSV reader does not expect
 * it, CSI starts a terminal's escape sequence).
 */
function hasControl(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if ((code < 32 && code !== 9 && code !== 10 && code !== 13) || (code >= 127 && code <= 159)) {
      return true
    }
  }
  return false
}

/**
 * True when `text` holds half of a UTF-16 surrogate pair without the other: no character at
 * all, which no browser sends from what a person typed and the database refuses as JSON.
 */
function hasLoneSurrogate(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1)
      if (next >= 0xdc00 && next <= 0xdfff) index++
      else return true
    } else if (code >= 0xdc00 && code <= 0xdfff) return true
  }
  return false
}

/**
 * The part before the @: RFC 5321's plain characters, dots not first, last or doubled; but no
 * `%`, which some relays still read as a route (`victim%other.example@relay.example` is mailed
 * on to `victim@other.example`): one mailbox would have as many spellings as there are relays.
 */
const LOCAL_PART = /^(?!\.)(?!.*\.\.)[A-Za-z0-9.!#$&'*+/=?^_`{|}~-]{1,64}$/
/**
 * A host name of two labels or more, in ASCII (international names as punycode), whose last
 * label (the top-level domain) is a name, never a number: `ip@127.0.0.10` names no domain.
 */
const DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{1,62}$/

/**
 * The address as stored and mailed: lowercase, its domain in ASCII (`bücher.de` becomes
 * `xn--bcher-kva.de`); undefined for anything that is not one plain address (a display name,
 * a group, a comment, control characters, a label `xn--…` that is no international name).
 * A well-formed address at a domain reserved for special use (`.test`, `.local`, …) is one:
 * the form refuses it with an error of its own (`emailDomain`).
 */
export function normalizeEmail(value: string): string | undefined {
  const text = value.trim()
  const at = text.lastIndexOf('@')
  if (at < 1 || text.length > MAX_EMAIL_LENGTH) return undefined
  const local = text.slice(0, at)
  const domain = text.slice(at + 1)
  if (
    !LOCAL_PART.test(local) ||
    local.endsWith('.') ||
    hasControl(domain) ||
    !/^[^\s@/\\:?#[\]%]+$/.test(domain)
  ) {
    return undefined
  }
  let ascii: string
  try {
    ascii = new URL(`http://${domain}`).hostname
  } catch {
    return undefined
  }
  if (!DOMAIN.test(ascii) || !hasValidLabels(ascii)) return undefined
  const address = `${local.toLowerCase()}@${ascii}`
  return address.length <= MAX_EMAIL_LENGTH ? address : undefined
}

const trimmed = (value: string) => value.trim()

/** The domain of an address `normalizeEmail` takes, as it stores it. */
const domainOf = (value: string) => {
  const address = normalizeEmail(value) ?? ''
  return address.slice(address.lastIndexOf('@') + 1)
}

/**
 * The length of a text as its visitor counts it: in characters (Unicode code points), so an
 * emoji or a letter beyond the Basic Multilingual Plane is one, not two UTF-16 units. The page
 * (its hint and its check before sending) and the service count the same way. Code points,
 * not grapheme clusters: their count is the same in every browser and Node.js (grapheme rules
 * change with each Unicode version), and bounds what is stored (four bytes each at most).
 */
export function textLength(text: string): number {
  let length = 0
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    // A high surrogate followed by a low one is one character.
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1)
      if (next >= 0xdc00 && next <= 0xdfff) index++
    }
    length++
  }
  return length
}

/** A list of values: a form sends one value as a string, several as an array. */
const values = (value: unknown): string[] | undefined =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value) && value.every((item) => typeof item === 'string')
      ? value
      : undefined

/**
 * The values chosen, each once, in the order first sent: a form sends a checkbox once; a
 * repeated value is dropped rather than stored (and proved) as many times as it came.
 */
const chosen = (value: unknown): string[] => [
  ...new Set((values(value) ?? []).filter((v) => v !== '')),
]

/**
 * No more values than there are options (and so no list of thousands to check): a value
 * sent twice is harmless and dropped, a list longer than the form's options is no form's.
 */
const withinOptions = (allowed: ReadonlySet<string>) =>
  z.refine((value: unknown) => (values(value) ?? []).length <= allowed.size, fail('choice'))

/** At least one value, each one of `allowed`, no more than there are. */
const someOf = (allowed: ReadonlySet<string>) =>
  z.unknown().check(
    z.refine((value) => value !== undefined, fail('chooseOne')),
    z.refine((value) => values(value) !== undefined, fail('invalid')),
    withinOptions(allowed),
    z.refine((value) => (values(value) ?? []).some((v) => v !== ''), fail('chooseOne')),
    z.refine(
      (value) => (values(value) ?? []).every((v) => v === '' || allowed.has(v)),
      fail('choice'),
    ),
  )

const common = (form: FormDefinition) => ({
  language: z.enum(LANGUAGES, fail('invalid')),
  version: z.string(fail('outdated')).check(z.refine((v) => v === form.version, fail('outdated'))),
  [HONEYPOT_FIELD]: z.optional(z.string(fail('invalid'))),
})

function listSchema(form: ListForm) {
  const topics = form.topics
    ? { topics: someOf(new Set(form.topics.options.map((option) => option.id))) }
    : {}
  return z.strictObject({
    email: z.string(fail('required')).check(
      z.refine((value) => trimmed(value) !== '', fail('required')),
      z.refine((value) => trimmed(value).length <= MAX_EMAIL_LENGTH, fail('tooLong')),
      z.refine((value) => normalizeEmail(value) !== undefined, fail('email')),
      z.refine((value) => !isReservedDomain(domainOf(value)), fail('emailDomain')),
    ),
    consent: z.literal(['yes', 'on', true], fail('consent')),
    ...topics,
    ...common(form),
  })
}

function answerSchema(question: Question) {
  const present = (value: unknown) =>
    value !== undefined && value !== '' && !(Array.isArray(value) && value.every((v) => v === ''))
  let check: z.ZodMiniType
  switch (question.type) {
    case 'single':
    case 'multiple': {
      const allowed = new Set(question.options.map((option) => option.id))
      check = z.unknown().check(
        z.refine((value) => values(value) !== undefined, fail('invalid')),
        withinOptions(allowed),
        z.refine(
          (value) => question.type === 'multiple' || (values(value) ?? []).length <= 1,
          fail('choice'),
        ),
        z.refine(
          (value) => (values(value) ?? []).every((v) => v === '' || allowed.has(v)),
          fail('choice'),
        ),
      )
      break
    }
    case 'scale':
      check = z.unknown().check(
        z.refine((value) => {
          const number = typeof value === 'number' ? value : Number(value)
          return (
            (typeof value === 'number' || (typeof value === 'string' && /^\d{1,2}$/.test(value))) &&
            Number.isInteger(number) &&
            number >= question.min &&
            number <= question.max
          )
        }, fail('number')),
      )
      break
    case 'text':
      check = z.string(fail('invalid')).check(
        z.refine((value) => !hasControl(value) && !hasLoneSurrogate(value), fail('invalid')),
        z.refine((value) => textLength(trimmed(value)) <= question.maxLength, fail('tooLong')),
      )
      break
  }
  return z.unknown().check(
    z.refine((value) => !question.required || present(value), fail('required')),
    z.refine((value) => !present(value) || check.safeParse(value).success, {
      error: (issue) => codeOf(check.safeParse(issue.input).error?.issues[0]?.message),
      abort: true,
    }),
  )
}

function surveySchema(form: SurveyForm) {
  const answers: Record<string, z.ZodMiniType> = {}
  for (const question of form.questions) {
    answers[answerField(question.id)] = question.required
      ? answerSchema(question)
      : z.optional(answerSchema(question))
  }
  return z.strictObject({ ...answers, ...common(form) })
}

/** The schema of one form's request body. */
const schemas = new WeakMap<
  FormDefinition,
  ReturnType<typeof listSchema> | ReturnType<typeof surveySchema>
>()

/** A form's schema, built once per form definition (building took 20 times the check). */
export function requestSchema(form: FormDefinition) {
  let schema = schemas.get(form)
  if (!schema) {
    schema = form.kind === 'list' ? listSchema(form) : surveySchema(form)
    schemas.set(form, schema)
  }
  return schema
}

const codeOf = (message: string | undefined): ErrorCode =>
  (ERROR_CODES as readonly string[]).includes(message ?? '') ? (message as ErrorCode) : 'invalid'

export interface ListSubmission {
  kind: 'list'
  email: string
  topics: string[]
  language: Language
  version: string
  /** True when the hidden field was filled in: a bot, answered as if all went well. */
  bot: boolean
}

export type Answer = string | string[] | number

export interface SurveySubmission {
  kind: 'survey'
  answers: Record<string, Answer>
  language: Language
  version: string
  bot: boolean
}

export type Submission = ListSubmission | SurveySubmission

export type Validation = { ok: true; value: Submission } | { ok: false; errors: FieldError[] }

/**
 * Checks a request body against its form: every field known, every value allowed. Errors come
 * one per field, in the order of the form.
 */
export function validateSubmission(form: FormDefinition, body: unknown): Validation {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, errors: [{ field: '', code: 'invalid' }] }
  }
  const parsed = requestSchema(form).safeParse(body)
  if (!parsed.success) {
    const errors: FieldError[] = []
    const seen = new Set<string>()
    const add = (field: string, code: ErrorCode) => {
      if (seen.has(field)) return
      seen.add(field)
      errors.push({ field, code })
    }
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) add(key, 'unknown')
      } else add(String(issue.path[0] ?? ''), codeOf(issue.message))
    }
    const order = fieldOrder(form)
    errors.sort((a, b) => order(a.field) - order(b.field))
    return { ok: false, errors }
  }
  const data = parsed.data as Record<string, unknown>
  const bot = typeof data[HONEYPOT_FIELD] === 'string' && data[HONEYPOT_FIELD] !== ''
  const language = data.language as Language
  if (form.kind === 'list') {
    return {
      ok: true,
      value: {
        kind: 'list',
        email: normalizeEmail(String(data.email)) ?? '',
        topics: chosen(data.topics),
        language,
        version: form.version,
        bot,
      },
    }
  }
  const answers: Record<string, Answer> = {}
  for (const question of form.questions) {
    const value = data[answerField(question.id)]
    if (value === undefined) continue
    if (question.type === 'scale') {
      if (value !== '') answers[question.id] = Number(value)
    } else if (question.type === 'text') {
      const text = trimmed(String(value))
      if (text !== '') answers[question.id] = text
    } else {
      const picked = chosen(value)
      if (picked.length > 0)
        answers[question.id] = question.type === 'single' ? (picked[0] as string) : picked
    }
  }
  return { ok: true, value: { kind: 'survey', answers, language, version: form.version, bot } }
}

/** The position of an input in its form, for errors in reading order. */
function fieldOrder(form: FormDefinition): (field: string) => number {
  const fields =
    form.kind === 'list'
      ? ['email', 'topics', 'consent']
      : form.questions.map((question) => answerField(question.id))
  return (field) => {
    const index = fields.indexOf(field)
    return index === -1 ? fields.length : index
  }
}

/** What the forms service answers a script. */
export const responseSchema = z.union([
  z.object({ ok: z.literal(true), redirect: z.string() }),
  z.object({
    ok: z.literal(false),
    errors: z.array(z.object({ field: z.string(), code: z.enum(ERROR_CODES) })),
  }),
  z.object({
    ok: z.literal(false),
    reason: z.enum([
      'rateLimited',
      'mail',
      'server',
      'unavailable',
      'tooLarge',
      'unsupported',
      'crossSite',
    ]),
  }),
])
export type FormResponse = z.infer<typeof responseSchema>
