/**
 * The forms service under `/api/`:
 *
 * - `POST /api/forms/{form}`: a mailing list's sign-up or a survey's answers, as JSON (the
 *   page's script; answered with JSON) or as a classic form post (no script; answered with a
 *   redirect to the success page, or a page listing what to correct).
 * - `GET /api/subscriptions/confirm?token=…`: the confirmation link of the double opt-in.
 * - `GET|POST /api/subscriptions/unsubscribe?token=…`: the unsubscribe link, and the one-click
 *   POST of `List-Unsubscribe-Post` (RFC 8058).
 * - `POST /api/consent`: a choice made in the cookie banner.
 *
 * Bodies are small and checked field by field before anything is stored; a rejected request
 * changes nothing. Logs name forms and outcomes, never addresses.
 */
import formBody from '@fastify/formbody'
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { type FormsContent, localizeForm } from '../../content/forms'
import type { SiteSettings } from '../../content/schema/entries'
import type { FormDefinition } from '../../shared/forms/definition'
import { answerField } from '../../shared/forms/definition'
import { type FieldError, FORM_MESSAGES, summaryText } from '../../shared/forms/messages'
import { type FormResponse, validateSubmission } from '../../shared/forms/validate'
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../../shared/languages'
import { confirmationMail } from './confirmation-mail'
import type { Mailer } from './mail'
import type { FormsStore, LinkOutcome } from './store'

export interface FormsServiceOptions {
  store: FormsStore
  mailer: Mailer
  forms: FormsContent
  settings: SiteSettings
  /** The public origin the links in e-mails point to (`SITE_URL`). */
  siteUrl: string
  /** Sends per address and minute to the POST routes; `false` turns the limit off (benchmarks). */
  rateLimit?: { max: number; timeWindowMs: number } | false
}

/** Form bodies are a few hundred bytes; 16 KB leaves room for long free-text answers. */
export const BODY_LIMIT = 16 * 1024

const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)

/** A classic form post (no script): answered with pages and redirects instead of JSON. */
const isFormPost = (request: FastifyRequest) =>
  (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')

const consentRecord = z.strictObject({
  id: z.uuid(),
  categories: z.strictObject({ analytics: z.boolean(), conversion: z.boolean() }),
  trackers: z.strictObject({
    googleanalytics: z.boolean(),
    adwords: z.boolean(),
    twitter: z.boolean(),
    linkedin: z.boolean(),
  }),
  revision: z.string().regex(/^[\w.-]{1,40}$/),
  language: z.enum(LANGUAGES),
})

export async function formsRoutes(app: FastifyInstance, options: FormsServiceOptions) {
  const { store, mailer, forms, settings } = options
  const siteUrl = options.siteUrl.replace(/\/$/, '')

  await app.register(formBody, { bodyLimit: BODY_LIMIT })
  const limit = options.rateLimit ?? { max: 10, timeWindowMs: 60_000 }
  if (limit) {
    await app.register(rateLimit, {
      global: false,
      max: limit.max,
      timeWindow: limit.timeWindowMs,
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        ok: false,
        reason: 'rateLimited',
        retryAfterSeconds: Math.ceil(context.ttl / 1000),
      }),
    })
  }
  // Without the plugin (limit off) the routes' setting is ignored.
  const limited = {
    rateLimit: limit
      ? { max: limit.max, timeWindow: limit.timeWindowMs }
      : { max: 0, timeWindow: 0 },
  }

  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store')
  })

  app.setErrorHandler(async (error: { statusCode?: number; code?: string }, request, reply) => {
    const status = error.statusCode ?? 500
    if (status >= 500) request.log.error({ err: error }, 'forms service failed')
    const reason =
      status === 429
        ? 'rateLimited'
        : status === 413
          ? 'tooLarge'
          : status === 415
            ? 'unsupported'
            : status >= 500
              ? 'server'
              : undefined
    const body: FormResponse = reason
      ? { ok: false, reason }
      : { ok: false, errors: [{ field: '', code: 'invalid' }] }
    if (isFormPost(request)) {
      const language = languageOf(request.body)
      const failed = FORM_MESSAGES[language].failed
      const line =
        reason === 'rateLimited'
          ? failed.rateLimited
          : reason === 'server'
            ? failed.server
            : FORM_MESSAGES[language].errors.invalid
      return reply
        .code(status)
        .type('text/html; charset=utf-8')
        .send(problemPage(language, [line]))
    }
    return reply.code(status).send(body)
  })

  app.post<{ Params: { form: string } }>(
    '/api/forms/:form',
    { bodyLimit: BODY_LIMIT, config: limited },
    async (request, reply) => {
      const id = request.params.form
      const language = languageOf(request.body)
      const form = localizeForm(forms, id, language)
      if (!form)
        return reply.code(404).send({ ok: false, errors: [{ field: '', code: 'unknown' }] })
      const checked = validateSubmission(form, request.body)
      if (!checked.ok) {
        request.log.info({ form: id, fields: checked.errors.map((e) => e.field) }, 'form rejected')
        if (isFormPost(request)) {
          return reply
            .code(422)
            .type('text/html; charset=utf-8')
            .send(errorPage(form, checked.errors, sameSiteReferer(request)))
        }
        return reply.code(422).send({ ok: false, errors: checked.errors } satisfies FormResponse)
      }
      const submission = checked.value
      const success = localizeForm(forms, id, submission.language) ?? form
      if (submission.bot) {
        request.log.info({ form: id }, 'form filled in by a bot; nothing stored')
      } else if (submission.kind === 'survey') {
        await store.saveSurvey({
          survey: id,
          version: submission.version,
          language: submission.language,
          answers: submission.answers,
        })
        request.log.info({ form: id }, 'survey answered')
      } else {
        const list = forms.lists[id]
        if (!list) throw new Error(`form ${id} is not a mailing list`)
        const due = await store.signUp({
          list: id,
          email: submission.email,
          language: submission.language,
          topics: submission.topics,
          consentVersion: list.consentVersion,
          consentText: list.consent[submission.language],
        })
        if (due) {
          const link = (path: string, token: string) =>
            `${siteUrl}/api/subscriptions/${path}?token=${token}&lang=${submission.language}`
          try {
            await mailer.send(
              confirmationMail(
                submission.email,
                list,
                submission.language,
                {
                  confirm: link('confirm', due.confirmToken),
                  unsubscribe: link('unsubscribe', due.unsubscribeToken),
                },
                settings,
              ),
            )
          } catch (error) {
            await store.mailFailed(due.subscriberId)
            request.log.error({ err: error, form: id }, 'confirmation e-mail not sent')
            const body: FormResponse = { ok: false, reason: 'mail' }
            if (isFormPost(request)) {
              return reply
                .code(503)
                .type('text/html; charset=utf-8')
                .send(
                  problemPage(submission.language, [
                    FORM_MESSAGES[submission.language].failed.mail,
                  ]),
                )
            }
            return reply.code(503).send(body)
          }
          request.log.info({ form: id }, 'sign-up recorded, confirmation e-mail sent')
        } else {
          request.log.info({ form: id }, 'sign-up repeated; no e-mail due')
        }
      }
      if (isFormPost(request)) return reply.redirect(success.successPath, 303)
      return reply.send({ ok: true, redirect: success.successPath } satisfies FormResponse)
    },
  )

  const linkTarget = (outcome: LinkOutcome, fallback: Language, done: (list: string) => string) => {
    if (outcome.outcome === 'invalid') return `/${fallback}/link-expired/`
    if (outcome.outcome === 'expired') return `/${outcome.language}/link-expired/`
    return `/${outcome.language}/${done(outcome.list)}/`
  }
  const tokenOf = (request: FastifyRequest) => {
    const query = request.query as Record<string, unknown>
    return {
      token: typeof query.token === 'string' ? query.token : '',
      language: isLanguage(query.lang) ? query.lang : DEFAULT_LANGUAGE,
    }
  }

  app.get('/api/subscriptions/confirm', { config: limited }, async (request, reply) => {
    const { token, language } = tokenOf(request)
    const outcome = await store.confirm(token)
    request.log.info({ outcome: outcome.outcome }, 'confirmation link followed')
    const confirmedPage = (list: string) => forms.lists[list]?.confirmedPage ?? 'link-expired'
    return reply.redirect(linkTarget(outcome, language, confirmedPage), 303)
  })

  app.get('/api/subscriptions/unsubscribe', { config: limited }, async (request, reply) => {
    const { token, language } = tokenOf(request)
    const outcome = await store.unsubscribe(token)
    request.log.info({ outcome: outcome.outcome }, 'unsubscribe link followed')
    return reply.redirect(
      linkTarget(outcome, language, () => 'unsubscribed'),
      303,
    )
  })

  // RFC 8058: a mail client unsubscribes with a POST of `List-Unsubscribe=One-Click`.
  app.post('/api/subscriptions/unsubscribe', { config: limited }, async (request, reply) => {
    const { token } = tokenOf(request)
    const outcome = await store.unsubscribe(token)
    request.log.info({ outcome: outcome.outcome }, 'one-click unsubscribe')
    if (outcome.outcome !== 'done')
      return reply.code(410).send({ ok: false, reason: outcome.outcome })
    return reply.send({ ok: true })
  })

  app.post('/api/consent', { bodyLimit: 2048, config: limited }, async (request, reply) => {
    const parsed = consentRecord.safeParse(request.body)
    if (!parsed.success) {
      const errors: FieldError[] = parsed.error.issues.map((issue) => ({
        field: issue.path.map(String).join('.'),
        code: issue.code === 'unrecognized_keys' ? 'unknown' : 'invalid',
      }))
      return reply.code(422).send({ ok: false, errors } satisfies FormResponse)
    }
    const { id, ...record } = parsed.data
    await store.saveConsent({ consentId: id, ...record })
    return reply.code(204).send()
  })

  app.all('/api/*', async (_request, reply) =>
    reply.code(404).send({ ok: false, errors: [{ field: '', code: 'unknown' }] }),
  )
}

function languageOf(body: unknown): Language {
  const language = (body as { language?: unknown } | undefined)?.language
  return isLanguage(language) ? language : DEFAULT_LANGUAGE
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  )

/** What a field is called on its form, for the page that lists errors without script. */
function fieldLabel(form: FormDefinition, field: string): string | undefined {
  const messages = FORM_MESSAGES[form.language]
  if (form.kind === 'list') {
    if (field === 'email') return messages.email
    if (field === 'topics') return form.topics?.legend
    return undefined
  }
  return form.questions.find((question) => answerField(question.id) === field)?.label
}

/** The page the form was sent from, when the browser says so and it is one of ours. */
function sameSiteReferer(request: FastifyRequest): string | undefined {
  const referer = request.headers.referer
  if (!referer) return undefined
  try {
    const url = new URL(referer)
    return url.host === request.headers.host ? url.pathname : undefined
  } catch {
    return undefined
  }
}

function errorPage(form: FormDefinition, errors: FieldError[], back: string | undefined): string {
  const messages = FORM_MESSAGES[form.language]
  const items = errors.map((error) => {
    const label = fieldLabel(form, error.field)
    const message = messages.errors[error.code]
    return label
      ? `<strong>${escapeHtml(label)}:</strong> ${escapeHtml(message)}`
      : escapeHtml(message)
  })
  return page(
    form.language,
    messages.errorPage.title,
    summaryText(form.language, errors.length),
    items,
    back ? { href: back, label: messages.errorPage.back } : undefined,
  )
}

function problemPage(language: Language, lines: string[]): string {
  const messages = FORM_MESSAGES[language]
  return page(language, messages.errorPage.title, '', lines.map(escapeHtml), undefined)
}

function page(
  language: Language,
  title: string,
  lead: string,
  items: string[],
  back: { href: string; label: string } | undefined,
): string {
  const messages = FORM_MESSAGES[language]
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
body{margin:0;font-family:system-ui,sans-serif;line-height:1.5;color:#1c1b1a;background:#fff}
main{max-width:40rem;margin:0 auto;padding:2rem 1rem}
h1{font-size:1.75rem;line-height:1.2}
li{margin-block:.5rem}
a{color:#b34700}
a:focus-visible{outline:3px solid #1c1b1a;outline-offset:2px}
</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${lead ? `<p>${escapeHtml(lead)}</p>` : ''}
<ul>${items.map((item) => `<li>${item}</li>`).join('')}</ul>
<p>${escapeHtml(messages.errorPage.backHint)}</p>
${back ? `<p><a href="${escapeHtml(back.href)}">${escapeHtml(back.label)}</a></p>` : ''}
</main>
</body>
</html>
`
}
