/**
 * The links of the mailing lists' e-mails: confirming a subscription (a page with one button,
 * whose POST confirms, so mail scanners that open every link confirm nothing) and
 * unsubscribing (the link itself, and the one-click POST of RFC 8058). Each ends on a page of
 * the site: confirmed, unsubscribed, or the link no longer works.
 */
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify'
import type { FormsContent } from '../content/forms'
import { LINK_EXPIRED_PAGE, UNSUBSCRIBED_PAGE } from '../shared/forms/definition'
import { FORM_MESSAGES } from '../shared/forms/messages'
import { DEFAULT_LANGUAGE, type Language } from '../shared/languages'
import { actionPage, confirmPage, linkPage } from './pages'
import { isLanguage } from './request'
import { type FormsStore, type LinkOutcome, subscriptionLink } from './store'

/** RFC 8058's one-click field and value, sent by mail providers to unsubscribe. */
export const ONE_CLICK_FIELD = 'List-Unsubscribe'
export const ONE_CLICK_VALUE = 'One-Click'

/** The routes of the e-mails' links; the configs carry their rate limits. */
export function subscriptionRoutes(
  app: FastifyInstance,
  store: FormsStore,
  forms: FormsContent,
  config: FastifyContextConfig,
  unsubscribeConfig: FastifyContextConfig,
): void {
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

  app.get('/api/subscriptions/confirm', { config }, async (request, reply) => {
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
    return linkPage(
      reply,
      confirmPage(
        found.language,
        name,
        button,
        subscriptionLink('', 'confirm', token, found.language),
      ),
    )
  })

  app.post('/api/subscriptions/confirm', { bodyLimit: 4096, config }, async (request, reply) => {
    const { token, language } = tokenOf(request)
    const outcome = await store.confirm(token)
    request.log.info({ outcome: outcome.outcome }, 'subscription confirmed')
    const target = linkTarget(
      outcome,
      language,
      outcome.outcome === 'done' ? confirmedPage(outcome) : '',
    )
    return reply.redirect(target, 303)
  })

  // The unsubscribe link shows a button, whose POST unsubscribes: no GET changes anything, so
  // a mail scanner that opens the link neither unsubscribes nor voids a confirmation link.
  app.get(
    '/api/subscriptions/unsubscribe',
    { config: unsubscribeConfig },
    async (request, reply) => {
      const { token, language } = tokenOf(request)
      const found = await store.inspectUnsubscribe(token)
      request.log.info({ state: found.state }, 'unsubscribe link opened')
      if (found.state === 'invalid') return reply.redirect(pageOf(language, LINK_EXPIRED_PAGE), 303)
      if (found.state === 'expired') {
        return reply.redirect(pageOf(found.language, LINK_EXPIRED_PAGE), 303)
      }
      if (found.state === 'done') {
        return reply.redirect(pageOf(found.language, UNSUBSCRIBED_PAGE), 303)
      }
      const name = forms.lists[found.list]?.name[found.language] ?? found.list
      const messages = FORM_MESSAGES[found.language].unsubscribePage
      return linkPage(
        reply,
        actionPage(found.language, {
          title: messages.title,
          lead: messages.lead.replace('{list}', name),
          button: messages.button,
          action: subscriptionLink('', 'unsubscribe', token, found.language),
        }),
      )
    },
  )

  // The page's button, and RFC 8058's one click: a mail provider POSTs
  // `List-Unsubscribe=One-Click` (urlencoded or multipart) and is answered in plain text; the
  // button's visitor lands on a page of the site.
  app.post(
    '/api/subscriptions/unsubscribe',
    { bodyLimit: 4096, config: unsubscribeConfig },
    async (request, reply) => {
      const { token, language } = tokenOf(request)
      const outcome = await store.unsubscribe(token)
      const body = request.body as Record<string, unknown> | undefined
      if (body?.[ONE_CLICK_FIELD] === ONE_CLICK_VALUE) {
        request.log.info({ outcome: outcome.outcome }, 'one-click unsubscribe')
        if (outcome.outcome !== 'done') {
          return reply
            .code(410)
            .type('text/plain; charset=utf-8')
            .send('This link no longer works.')
        }
        return reply.type('text/plain; charset=utf-8').send('Unsubscribed.')
      }
      request.log.info({ outcome: outcome.outcome }, 'unsubscribed')
      const done = outcome.outcome === 'done' ? pageOf(outcome.language, UNSUBSCRIBED_PAGE) : ''
      return reply.redirect(linkTarget(outcome, language, done), 303)
    },
  )
}
