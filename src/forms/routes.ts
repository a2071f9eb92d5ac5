/**
 * The forms service under `/api/`:
 *
 * - `POST /api/forms/{form}`: a mailing list's sign-up or a survey's answers, as JSON (the
 *   page's script; answered with JSON) or as a classic form post (no script; answered with a
 *   redirect to the success page, or a page listing what to correct).
 * - `GET /api/subscriptions/confirm?token=…`: the confirmation link of the double opt-in. It
 *   shows one button, whose POST confirms: mail scanners that open every link confirm nothing.
 * - `GET /api/subscriptions/unsubscribe?token=…`: the unsubscribe link, a page with one button
 *   whose POST unsubscribes; `POST` also takes the one click of `List-Unsubscribe-Post`
 *   (RFC 8058), urlencoded or multipart.
 * - `POST /api/consent`: a choice made in the cookie banner.
 *
 * No GET changes anything. A POST that a browser says comes from another site is refused
 * before its body is read. Bodies are small (every content type held to the route's limit, 413
 * past it) and checked field by field before anything is stored; a rejected request changes
 * nothing. Browsers get pages and redirects, scripts JSON. Logs name forms, outcomes and the
 * form's own field names, never addresses or what a visitor typed.
 */
import formBody from '@fastify/formbody'
import rateLimit from '@fastify/rate-limit'
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify'
import { type FormsContent, localizeForm } from '../content/forms'
import { isDiskFull, isUnavailable } from '../database/errors'
import { networkGroups } from '../http/client-address'
import { ClientGroupsStore } from '../http/client-rate-limit'
import { failureOf } from '../mail/failure'
import type { FormDefinition } from '../shared/forms/definition'
import { FORM_MESSAGES } from '../shared/forms/messages'
import { type FormResponse, validateSubmission } from '../shared/forms/validate'
import type { Language } from '../shared/languages'
import { consentRoute } from './consent-route'
import { DISK_FULL_RETRY_SECONDS, type DiskSpace } from './disk-space'
import type { FormsMetrics, SubmissionResult } from './metrics'
import { errorPage, html, problemPage } from './pages'
import { fromAnotherSite, languageOf, sameSiteReferer, wantsPage } from './request'
import type { FormsStore } from './store'
import { ONE_CLICK_FIELD, ONE_CLICK_VALUE, subscriptionRoutes } from './subscription-routes'

export interface FormsServiceOptions {
  store: FormsStore
  forms: FormsContent
  /** Told when a sign-up has queued a confirmation e-mail (the sender wakes up). */
  mailQueued?: () => void
  /** The public origin the links in e-mails point to (`SITE_URL`). */
  siteUrl: string
  /**
   * Form sends per client (an IPv4 address, an IPv6 /64) and minute; confirmations and consent
   * records may come ten times as often, unsubscriptions without limit. `false` turns it off
   * (benchmarks).
   */
  rateLimit?: { max: number; timeWindowMs: number } | false
  /** What the sends came to, for the operators' metrics (`./metrics.ts`). */
  metrics?: FormsMetrics
  /** Told of a full disk and of forms stored (readiness, `./disk-space.ts`). */
  diskSpace?: DiskSpace
}

/** The route a form is sent to. */
const FORM_ROUTE = '/api/forms/:form'

/**
 * The largest body accepted: a survey's longest answers sent without script, percent-encoded
 * (up to 9 bytes a character), fit; anything larger is no form of ours.
 */
export const BODY_LIMIT = 64 * 1024

/** RFC 8058's one click as a part of a multipart body: the field, its headers, its value. */
const ONE_CLICK_PART =
  /name="?List-Unsubscribe"?[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\nOne-Click\r?\n/i

const isOneClickMultipart = (body: Buffer) => ONE_CLICK_PART.test(body.toString('latin1'))

/** How long a visitor turned away by the cap is asked to wait. */
const CAP_RETRY_SECONDS = 600
/** The cap's log line is written at most this often (with the number turned away since). */
const CAP_LOG_EVERY_MS = 60_000

export async function formsRoutes(app: FastifyInstance, options: FormsServiceOptions) {
  const { store, forms } = options
  /** Counts a send of a form (other routes' requests are not sign-ups). */
  const count = (request: FastifyRequest, result: SubmissionResult) => {
    if (request.routeOptions.url !== FORM_ROUTE) return
    options.metrics?.submission((request.params as { form?: string }).form ?? '', result)
  }
  let capLoggedAt = Number.NEGATIVE_INFINITY
  let capRefused = 0
  const capReached = (log: FastifyBaseLogger) => {
    capRefused++
    if (Date.now() - capLoggedAt < CAP_LOG_EVERY_MS) return
    log.warn(
      { refused: capRefused },
      'confirmation mail cap reached (CONFIRMATION_MAILS_PER_HOUR); sign-ups refused',
    )
    capLoggedAt = Date.now()
    capRefused = 0
  }
  // A full disk fails every sign-up: logged once a minute (the log may be on that disk).
  let diskLoggedAt = Number.NEGATIVE_INFINITY
  let diskRefused = 0
  const diskFull = (log: FastifyBaseLogger, error: unknown) => {
    diskRefused++
    if (Date.now() - diskLoggedAt < CAP_LOG_EVERY_MS) return
    log.error(
      { ...failureOf(error), refused: diskRefused },
      'database disk full; forms refused until space is freed',
    )
    diskLoggedAt = Date.now()
    diskRefused = 0
  }
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
  // RFC 8058 asks mail clients for a multipart body; the token is in the address, so all that
  // matters of a multipart body is whether it is the one-click field. It is read like any
  // other body: up to the route's limit, past which the answer is 413.
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (_request, body, done) => {
    done(null, isOneClickMultipart(body as Buffer) ? { [ONE_CLICK_FIELD]: ONE_CLICK_VALUE } : {})
  })
  // A form posted by a page of another site is refused before its body is read.
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'POST' || !fromAnotherSite(request, siteUrl)) return
    request.log.info({ path: request.routeOptions.url }, 'form post from another site refused')
    count(request, 'cross_site')
    const language = languageOf(request)
    if (wantsPage(request)) {
      return html(reply, 403, problemPage(language, [FORM_MESSAGES[language].failed.crossSite]))
    }
    return reply.code(403).send({ ok: false, reason: 'crossSite' } satisfies FormResponse)
  })
  const limit = options.rateLimit ?? { max: 10, timeWindowMs: 60_000 }
  if (limit) {
    await app.register(rateLimit, {
      global: false,
      timeWindow: limit.timeWindowMs,
      // A client counted in its groups (an IPv6 one in its /64, /56 and /48 at once; an
      // IPv4-mapped one as its IPv4 address): see client-address.ts.
      keyGenerator: (request) => request.ip,
      store: ClientGroupsStore,
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
    // The database's disk is full: nothing was stored (the statement failed whole, and what
    // was stored before stays), and the visitor may come back once an operator freed space.
    if (options.diskSpace?.failed(error) || isDiskFull(error)) {
      options.metrics?.databaseError()
      count(request, 'unavailable')
      diskFull(request.log, error)
      reply.header('retry-after', String(DISK_FULL_RETRY_SECONDS))
      const language = languageOf(request)
      if (wantsPage(request)) {
        return html(reply, 503, problemPage(language, [FORM_MESSAGES[language].failed.unavailable]))
      }
      return reply.code(503).send({ ok: false, reason: 'unavailable' } satisfies FormResponse)
    }
    // The database cannot be reached: nothing was stored (every change is one transaction),
    // and the visitor is told to try again shortly.
    const unavailable = isUnavailable(error)
    const status = unavailable ? 503 : (error.statusCode ?? 500)
    if (unavailable) options.metrics?.databaseError()
    count(
      request,
      unavailable
        ? 'unavailable'
        : status === 429
          ? 'rate_limited'
          : status >= 500
            ? 'error'
            : 'invalid',
    )
    if (unavailable) request.log.error(failureOf(error), 'database unavailable')
    else if (request.raw.socket?.destroyed) {
      // The visitor hung up (its body half sent, say): no fault of ours, and no one to answer.
      request.log.info(failureOf(error), 'request aborted by the client')
    } else if (status >= 500) request.log.error(failureOf(error), 'forms service failed')
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
    FORM_ROUTE,
    { bodyLimit: BODY_LIMIT, config: limited(1) },
    async (request, reply) => {
      const id = request.params.form
      const language = languageOf(request)
      const form = formOf(id, language)
      if (!form) {
        count(request, 'invalid')
        if (wantsPage(request)) {
          return html(reply, 404, problemPage(language, [FORM_MESSAGES[language].errors.unknown]))
        }
        return reply.code(404).send({ ok: false, errors: [{ field: '', code: 'unknown' }] })
      }
      const checked = validateSubmission(form, request.body)
      if (!checked.ok) {
        // The names of the form's own fields only: an unknown one is whatever was sent (a
        // JSON text posted as a form is one field named by all of it, address included).
        const unknown = checked.errors.filter((error) => error.code === 'unknown').length
        const fields = checked.errors
          .filter((error) => error.code !== 'unknown')
          .map((error) => error.field)
        request.log.info(
          { form: id, fields, ...(unknown ? { unknownFields: unknown } : {}) },
          'form rejected',
        )
        count(request, 'invalid')
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
        count(request, 'bot')
      } else if (submission.kind === 'survey') {
        await store.saveSurvey({
          survey: id,
          version: submission.version,
          language: submission.language,
          answers: submission.answers,
        })
        options.diskSpace?.stored()
        request.log.info({ form: id }, 'survey answered')
        count(request, 'accepted')
      } else {
        const list = forms.lists[id]
        if (!list) throw new Error(`form ${id} is not a mailing list`)
        const signedUp = await store.signUp({
          list: id,
          email: submission.email,
          language: submission.language,
          topics: submission.topics,
          consentVersion: list.consentVersion,
          consentText: list.consent[submission.language],
          client: networkGroups(request.ip),
        })
        options.diskSpace?.stored()
        switch (signedUp.outcome) {
          case 'queued':
            options.mailQueued?.()
            request.log.info({ form: id }, 'sign-up recorded, confirmation e-mail queued')
            count(request, 'accepted')
            options.metrics?.mail('queued')
            break
          case 'repeated':
            request.log.info({ form: id }, 'sign-up repeated; no e-mail due')
            count(request, 'repeated')
            break
          case 'mailboxLimit':
            // Answered as any sign-up: the sender learns nothing of the mailbox.
            request.log.info({ form: id }, 'sign-up for a mailbox that had its mails; none sent')
            count(request, 'mailbox_limit')
            break
          case 'clientShare':
            // This network (an IPv4 /24, an IPv6 /64) had its share of the hour's mails: others
            // are still served. Answered as the rate limit is: it is this connection's limit.
            request.log.info({ form: id }, 'sign-up from a network that had its share of mails')
            count(request, 'client_share')
            reply.header('retry-after', String(signedUp.retryAfterSeconds))
            if (wantsPage(request)) {
              return html(
                reply,
                429,
                problemPage(language, [FORM_MESSAGES[language].failed.rateLimited]),
              )
            }
            return reply.code(429).send({ ok: false, reason: 'rateLimited' } satisfies FormResponse)
          case 'serviceCap':
            capReached(request.log)
            count(request, 'service_cap')
            reply.header('retry-after', String(CAP_RETRY_SECONDS))
            if (wantsPage(request)) {
              return html(
                reply,
                503,
                problemPage(language, [FORM_MESSAGES[language].failed.unavailable]),
              )
            }
            return reply.code(503).send({ ok: false, reason: 'unavailable' } satisfies FormResponse)
        }
      }
      if (wantsPage(request)) return reply.redirect(success.successPath, 303)
      return reply.send({ ok: true, redirect: success.successPath } satisfies FormResponse)
    },
  )

  subscriptionRoutes(app, store, forms, limited(10), limited(10))
  consentRoute(app, store, limited(10))

  app.all('/api/*', async (_request, reply) =>
    reply.code(404).send({ ok: false, errors: [{ field: '', code: 'unknown' }] }),
  )
}
