/**
 * The forms service under `/api/`:
 *
 * - `POST /api/forms/{form}`: a mailing list's sign-up or a survey's answers, as JSON (the
 *   page's script; answered with JSON) or as a classic form post (no script; answered with a
 *   redirect to the success page, or a page listing what to correct).
 * - `GET /api/subscriptions/confirm?token=…`: the confirmation link of the double opt-in. It
 *   shows one button, whose POST confirms: mail scanners that open every link confirm nothing.
 * - `GET|POST /api/subscriptions/unsubscribe?token=…`: the unsubscribe link (one click), and the
 *   one-click POST of `List-Unsubscribe-Post` (RFC 8058), with any body a mail client sends.
 * - `POST /api/consent`: a choice made in the cookie banner.
 *
 * Bodies are small and checked field by field before anything is stored; a rejected request
 * changes nothing. Browsers get pages and redirects, scripts JSON. Logs name forms and
 * outcomes, never addresses.
 */
import formBody from '@fastify/formbody'
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { type FormsContent, localizeForm } from '../../content/forms'
import {
  type FormDefinition,
  LINK_EXPIRED_PAGE,
  UNSUBSCRIBED_PAGE,
} from '../../shared/forms/definition'
import {
  errorLine,
  type FieldError,
  FORM_MESSAGES,
  fieldLabel,
  summaryText,
} from '../../shared/forms/messages'
import { type FormResponse, validateSubmission } from '../../shared/forms/validate'
import { escapeHtml } from '../../shared/html'
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../../shared/languages'
import { isUnavailable } from './database'
import { failureOf } from './sender'
import { type FormsStore, type LinkOutcome, subscriptionLink } from './store'

export interface FormsServiceOptions {
  store: FormsStore
  forms: FormsContent
  /** Told when a sign-up has queued a confirmation e-mail (the sender wakes up). */
  mailQueued?: () => void
  /** The public origin the links in e-mails point to (`SITE_URL`). */
  siteUrl: string
  /**
   * Form sends per address and minute; confirmations and consent records may come ten times
   * as often, unsubscriptions without limit. `false` turns it off (benchmarks).
   */
  rateLimit?: { max: number; timeWindowMs: number } | false
}

/**
 * The largest body accepted: a survey's longest answers sent without script, percent-encoded
 * (up to 9 bytes a character), fit; anything larger is no form of ours.
 */
export const BODY_LIMIT = 64 * 1024

const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)

/** A browser without our script (a form post, a link followed): answered with pages. */
const wantsPage = (request: FastifyRequest) =>
  request.method === 'GET' ||
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

const html = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).type('text/html; charset=utf-8').send(body)

export async function formsRoutes(app: FastifyInstance, options: FormsServiceOptions) {
  const { store, forms } = options
  const siteUrl = options.siteUrl.replace(/\/$/, '')
  // Each form in each language made once (its checks are built once per definition); only
  // forms that exist are kept, so unknown names cannot grow the map.
  const localized = new Map<string, FormDefinition>()
  const formOf = (id: string, language: Language) => {
    const key = `${language}:${id}`
    const known = localized.get(key)
    if (known) return known
    const form = localizeForm(forms, id, language)
    if (form) localized.set(key, form)
    return form
  }

  await app.register(formBody, { bodyLimit: BODY_LIMIT })
  // RFC 8058 asks mail clients for a multipart body; the token is in the address, so the body
  // of an unsubscribe (and of any multipart post) is read and set aside.
  app.addContentTypeParser('multipart/form-data', (_request, payload, done) => {
    payload.resume()
    payload.on('end', () => done(null, {}))
    payload.on('error', (error) => done(error))
  })
  const limit = options.rateLimit ?? { max: 10, timeWindowMs: 60_000 }
  if (limit) {
    await app.register(rateLimit, {
      global: false,
      timeWindow: limit.timeWindowMs,
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        ok: false,
        reason: 'rateLimited',
        retryAfterSeconds: Math.ceil(context.ttl / 1000),
      }),
    })
  }
  /** A route's limit: `times` the base per address and minute; nothing when the limit is off. */
  const limited = (times: number): { rateLimit?: { max: number; timeWindow: number } } =>
    limit ? { rateLimit: { max: limit.max * times, timeWindow: limit.timeWindowMs } } : {}

  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store')
  })

  app.setErrorHandler(async (error: { statusCode?: number }, request, reply) => {
    // The database cannot be reached: nothing was stored (every change is one transaction),
    // and the visitor is told to try again shortly.
    const unavailable = isUnavailable(error)
    const status = unavailable ? 503 : (error.statusCode ?? 500)
    if (unavailable) request.log.error(failureOf(error), 'database unavailable')
    else if (status >= 500) request.log.error(failureOf(error), 'forms service failed')
    const reason = unavailable
      ? 'unavailable'
      : status === 429
        ? 'rateLimited'
        : status === 413
          ? 'tooLarge'
          : status === 415
            ? 'unsupported'
            : status >= 500
              ? 'server'
              : undefined
    if (wantsPage(request)) {
      const language = languageOf(request)
      const failed = FORM_MESSAGES[language].failed
      const line =
        reason === 'rateLimited' || reason === 'server' || reason === 'unavailable'
          ? failed[reason]
          : FORM_MESSAGES[language].errors.invalid
      return html(reply, status, problemPage(language, [line]))
    }
    const body: FormResponse = reason
      ? { ok: false, reason }
      : { ok: false, errors: [{ field: '', code: 'invalid' }] }
    return reply.code(status).send(body)
  })

  app.post<{ Params: { form: string } }>(
    '/api/forms/:form',
    { bodyLimit: BODY_LIMIT, config: limited(1) },
    async (request, reply) => {
      const id = request.params.form
      const language = languageOf(request)
      const form = formOf(id, language)
      if (!form) {
        if (wantsPage(request)) {
          return html(reply, 404, problemPage(language, [FORM_MESSAGES[language].errors.unknown]))
        }
        return reply.code(404).send({ ok: false, errors: [{ field: '', code: 'unknown' }] })
      }
      const checked = validateSubmission(form, request.body)
      if (!checked.ok) {
        request.log.info({ form: id, fields: checked.errors.map((e) => e.field) }, 'form rejected')
        if (wantsPage(request)) {
          return html(
            reply,
            422,
            errorPage(form, checked.errors, sameSiteReferer(request, siteUrl)),
          )
        }
        return reply.code(422).send({ ok: false, errors: checked.errors } satisfies FormResponse)
      }
      const submission = checked.value
      const success = formOf(id, submission.language) ?? form
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
        const queued = await store.signUp({
          list: id,
          email: submission.email,
          language: submission.language,
          topics: submission.topics,
          consentVersion: list.consentVersion,
          consentText: list.consent[submission.language],
        })
        if (queued) {
          options.mailQueued?.()
          request.log.info({ form: id }, 'sign-up recorded, confirmation e-mail queued')
        } else {
          request.log.info({ form: id }, 'sign-up repeated; no e-mail due')
        }
      }
      if (wantsPage(request)) return reply.redirect(success.successPath, 303)
      return reply.send({ ok: true, redirect: success.successPath } satisfies FormResponse)
    },
  )

  const pageOf = (language: Language, page: string) => `/${language}/${page}/`
  const confirmedPage = (outcome: { list: string; language: Language }) =>
    pageOf(outcome.language, forms.lists[outcome.list]?.confirmedPage ?? LINK_EXPIRED_PAGE)
  const linkTarget = (outcome: LinkOutcome, fallback: Language, done: string) =>
    outcome.outcome === 'invalid'
      ? pageOf(fallback, LINK_EXPIRED_PAGE)
      : outcome.outcome === 'expired'
        ? pageOf(outcome.language, LINK_EXPIRED_PAGE)
        : done
  const tokenOf = (request: FastifyRequest) => {
    const query = request.query as Record<string, unknown>
    return {
      token: typeof query.token === 'string' ? query.token : '',
      language: isLanguage(query.lang) ? query.lang : DEFAULT_LANGUAGE,
    }
  }

  app.get('/api/subscriptions/confirm', { config: limited(10) }, async (request, reply) => {
    const { token, language } = tokenOf(request)
    const found = await store.inspectConfirmation(token)
    request.log.info({ state: found.state }, 'confirmation link opened')
    if (found.state === 'invalid') return reply.redirect(pageOf(language, LINK_EXPIRED_PAGE), 303)
    if (found.state === 'expired') {
      return reply.redirect(pageOf(found.language, LINK_EXPIRED_PAGE), 303)
    }
    if (found.state === 'done') return reply.redirect(confirmedPage(found), 303)
    const list = forms.lists[found.list]
    const name = list?.name[found.language] ?? found.list
    const button =
      list?.mail.button[found.language] ?? FORM_MESSAGES[found.language].confirmPage.title
    return html(
      reply,
      200,
      confirmPage(
        found.language,
        name,
        button,
        subscriptionLink('', 'confirm', token, found.language),
      ),
    )
  })

  app.post(
    '/api/subscriptions/confirm',
    { bodyLimit: 4096, config: limited(10) },
    async (request, reply) => {
      const { token, language } = tokenOf(request)
      const outcome = await store.confirm(token)
      request.log.info({ outcome: outcome.outcome }, 'subscription confirmed')
      const target = linkTarget(
        outcome,
        language,
        outcome.outcome === 'done' ? confirmedPage(outcome) : '',
      )
      return reply.redirect(target, 303)
    },
  )

  app.get('/api/subscriptions/unsubscribe', async (request, reply) => {
    const { token, language } = tokenOf(request)
    const outcome = await store.unsubscribe(token)
    request.log.info({ outcome: outcome.outcome }, 'unsubscribe link followed')
    const done = outcome.outcome === 'done' ? pageOf(outcome.language, UNSUBSCRIBED_PAGE) : ''
    return reply.redirect(linkTarget(outcome, language, done), 303)
  })

  // RFC 8058: a mail client unsubscribes with a POST of `List-Unsubscribe=One-Click`.
  app.post('/api/subscriptions/unsubscribe', { bodyLimit: 4096 }, async (request, reply) => {
    const { token } = tokenOf(request)
    const outcome = await store.unsubscribe(token)
    request.log.info({ outcome: outcome.outcome }, 'one-click unsubscribe')
    if (outcome.outcome !== 'done') {
      return reply.code(410).type('text/plain; charset=utf-8').send('This link no longer works.')
    }
    return reply.type('text/plain; charset=utf-8').send('Unsubscribed.')
  })

  app.post('/api/consent', { bodyLimit: 2048, config: limited(10) }, async (request, reply) => {
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

/** The visitor's language: the form's `language` field, else the link's `lang`, else English. */
function languageOf(request: FastifyRequest): Language {
  const fromBody = (request.body as { language?: unknown } | undefined)?.language
  const fromQuery = (request.query as { lang?: unknown } | undefined)?.lang
  return isLanguage(fromBody) ? fromBody : isLanguage(fromQuery) ? fromQuery : DEFAULT_LANGUAGE
}

/** The page the form was sent from, when the browser says so and it is one of ours. */
function sameSiteReferer(request: FastifyRequest, siteUrl: string): string | undefined {
  const referer = request.headers.referer
  if (!referer) return undefined
  try {
    const url = new URL(referer)
    const ours = url.origin === new URL(siteUrl).origin || url.host === request.headers.host
    return ours && /^\/(?!\/)/.test(url.pathname) ? url.pathname : undefined
  } catch {
    return undefined
  }
}

function errorPage(form: FormDefinition, errors: FieldError[], back: string | undefined): string {
  const messages = FORM_MESSAGES[form.language]
  const items = errors.map((error) => {
    const label = fieldLabel(form, error.field)
    return label
      ? `<strong>${escapeHtml(label)}:</strong> ${escapeHtml(messages.errors[error.code])}`
      : escapeHtml(errorLine(form, error))
  })
  return page(form.language, messages.errorPage.title, {
    lead: summaryText(form.language, errors.length),
    items,
    hint: messages.errorPage.backHint,
    ...(back ? { back: { href: back, label: messages.errorPage.back } } : {}),
  })
}

function problemPage(language: Language, lines: string[]): string {
  return page(language, FORM_MESSAGES[language].errorPage.title, {
    items: lines.map(escapeHtml),
    hint: FORM_MESSAGES[language].errorPage.backHint,
  })
}

function confirmPage(language: Language, list: string, button: string, action: string): string {
  const messages = FORM_MESSAGES[language].confirmPage
  return page(language, messages.title, {
    lead: messages.lead.replace('{list}', list),
    form: { action, button },
  })
}

/**
 * The one stylesheet of the service's pages, inline (they must show without the site); the
 * content security policy allows exactly this text, by its hash (`API_STYLE_HASH`).
 */
export const SERVICE_PAGE_CSS = [
  'body{margin:0;font-family:system-ui,sans-serif;line-height:1.5;color:#1c1b1a;background:#fff}',
  'main{max-width:40rem;margin:0 auto;padding:2rem 1rem}',
  'h1{font-size:1.75rem;line-height:1.2}',
  'li{margin-block:.5rem}',
  'a{color:#b34700}',
  'button{font:inherit;font-weight:600;min-height:2.75rem;padding:.5rem 1.5rem;border:2px solid #b34700;border-radius:999px;background:#b34700;color:#fff;cursor:pointer}',
  'button:hover{background:#9a3c07;border-color:#9a3c07}',
  'a:focus-visible,button:focus-visible{outline:3px solid #1a56db;outline-offset:2px}',
].join('')

/** A small page of the service's own, for browsers: a heading, a few lines, maybe a button. */
function page(
  language: Language,
  title: string,
  parts: {
    lead?: string
    items?: string[]
    hint?: string
    back?: { href: string; label: string }
    form?: { action: string; button: string }
  },
): string {
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${SERVICE_PAGE_CSS}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${parts.lead ? `<p>${escapeHtml(parts.lead)}</p>` : ''}
${parts.items?.length ? `<ul>${parts.items.map((item) => `<li>${item}</li>`).join('')}</ul>` : ''}
${parts.form ? `<form method="post" action="${escapeHtml(parts.form.action)}"><button type="submit">${escapeHtml(parts.form.button)}</button></form>` : ''}
${parts.hint ? `<p>${escapeHtml(parts.hint)}</p>` : ''}
${parts.back ? `<p><a href="${escapeHtml(parts.back.href)}">${escapeHtml(parts.back.label)}</a></p>` : ''}
</main>
</body>
</html>
`
}
