/**
 * The service's own small pages, for browsers without our script: what to correct in a form,
 * why a request failed, and the button that confirms a subscription. They stand alone (no
 * site stylesheet or script) with one inline stylesheet the security policy names by hash.
 */
import type { FastifyReply } from 'fastify'
import type { FormDefinition } from '../../shared/forms/definition'
import {
  errorLine,
  type FieldError,
  FORM_MESSAGES,
  fieldLabel,
  summaryText,
} from '../../shared/forms/messages'
import { escapeHtml } from '../../shared/html'
import { htmlPage } from '../../shared/html-page'
import type { Language } from '../../shared/languages'

/** Sends one of these pages. */
export const html = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).type('text/html; charset=utf-8').send(body)

/**
 * Sends a page of an e-mail's link, whose address holds its token. The service's answers send
 * no referrer at all; this page's button must send its `Origin` (which a browser sends as
 * `null` under `no-referrer`), so it sends the origin only, never the address.
 */
export const linkPage = (reply: FastifyReply, body: string) =>
  html(reply.header('referrer-policy', 'strict-origin'), 200, body)

/** What to correct in a form sent without script, with a link back to it. */
export function errorPage(
  form: FormDefinition,
  errors: FieldError[],
  back: string | undefined,
): string {
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

/** Why a request failed, in lines of text. */
export function problemPage(language: Language, lines: string[]): string {
  return page(language, FORM_MESSAGES[language].errorPage.title, {
    items: lines.map(escapeHtml),
    hint: FORM_MESSAGES[language].errorPage.backHint,
  })
}

/** The confirmation link's page: one button, whose POST confirms the subscription. */
export function confirmPage(
  language: Language,
  list: string,
  button: string,
  action: string,
): string {
  const messages = FORM_MESSAGES[language].confirmPage
  return page(language, messages.title, {
    lead: messages.lead.replace('{list}', list),
    form: { action, button },
  })
}

/** A page of an e-mail's link that acts only when its one button is pressed (a POST). */
export function actionPage(
  language: Language,
  parts: { title: string; lead: string; button: string; action: string },
): string {
  return page(language, parts.title, {
    lead: parts.lead,
    form: { action: parts.action, button: parts.button },
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
  return htmlPage({
    language,
    title,
    head: [`<style>${SERVICE_PAGE_CSS}</style>`],
    body: `<main>
<h1>${escapeHtml(title)}</h1>
${parts.lead ? `<p>${escapeHtml(parts.lead)}</p>` : ''}
${parts.items?.length ? `<ul>${parts.items.map((item) => `<li>${item}</li>`).join('')}</ul>` : ''}
${parts.form ? `<form method="post" action="${escapeHtml(parts.form.action)}"><button type="submit">${escapeHtml(parts.form.button)}</button></form>` : ''}
${parts.hint ? `<p>${escapeHtml(parts.hint)}</p>` : ''}
${parts.back ? `<p><a href="${escapeHtml(parts.back.href)}">${escapeHtml(parts.back.label)}</a></p>` : ''}
</main>`,
  })
}
