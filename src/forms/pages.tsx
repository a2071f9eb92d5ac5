/**
 * The service's own small pages, for browsers without our script: what to correct in a form,
 * why a request failed, and the button of an e-mail's link (confirming a subscription, ending
 * one). React components rendered to static HTML on the server (nothing hydrates: the pages
 * work as HTML, their one form as a plain POST), as the publishing service's screens are. They
 * carry the bank's mark and name and the site's look: one stylesheet, `/api/pages.css`, made
 * of the site's design tokens and Inter (page-files.ts); no inline script or style, so the
 * service's policy allows styles and fonts from the site's origin and nothing else. React
 * escapes every text and attribute, whatever an editor or a visitor wrote into them.
 */
import type { FastifyReply } from 'fastify'
import type { ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { Mark } from '../shared/brand-mark'
import type { FormDefinition } from '../shared/forms/definition'
import {
  errorLine,
  type FieldError,
  FORM_MESSAGES,
  fieldLabel,
  summaryText,
} from '../shared/forms/messages'
import type { Language } from '../shared/languages'
import { ServiceHead } from '../shared/service-head'
import { PAGES_PRELOADED_FONT, PAGES_STYLESHEET } from './page-files'

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

/** The bank's name beside its mark. */
const BANK_NAME = 'Lumora Bank'

/**
 * The document of every page: its head (no inline script or style), the bar with the bank's
 * mark and name, then the page's heading and content. The bar is no link: each page has one
 * thing to do (press the button, go back to the form), and nothing else competes with it.
 */
function ServicePage({
  language,
  title,
  children,
}: {
  language: Language
  title: string
  children: ReactNode
}) {
  return (
    <html lang={language}>
      <ServiceHead title={title} stylesheet={PAGES_STYLESHEET} font={PAGES_PRELOADED_FONT} />
      <body>
        <header className="bar">
          <div className="brand">
            <Mark />
            <span>{BANK_NAME}</span>
          </div>
        </header>
        <main>
          <h1>{title}</h1>
          {children}
        </main>
      </body>
    </html>
  )
}

/** What went wrong, one item a problem. */
function Problems({ items }: { items: readonly ReactNode[] }) {
  return (
    <ul className="problems">
      {items.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one answer, in order
        <li key={index}>{item}</li>
      ))}
    </ul>
  )
}

/** The one button of a page, whose POST does what the page is for. */
function ActionForm({ action, button }: { action: string; button: string }) {
  return (
    <form method="post" action={action}>
      <button type="submit">{button}</button>
    </form>
  )
}

/** The HTML a page is sent as. */
const render = (page: ReactNode) => `<!doctype html>\n${renderToStaticMarkup(page)}\n`

/** What to correct in a form sent without script, with a link back to it. */
export function errorPage(
  form: FormDefinition,
  errors: FieldError[],
  back: string | undefined,
): string {
  const messages = FORM_MESSAGES[form.language]
  const items = errors.map((error) => {
    const label = fieldLabel(form, error.field)
    return label ? (
      <>
        <strong>{label}:</strong> {messages.errors[error.code]}
      </>
    ) : (
      errorLine(form, error)
    )
  })
  return render(
    <ServicePage language={form.language} title={messages.errorPage.title}>
      <p>{summaryText(form.language, errors.length)}</p>
      <Problems items={items} />
      <p className="hint">{messages.errorPage.backHint}</p>
      {back ? (
        <p>
          <a href={back}>{messages.errorPage.back}</a>
        </p>
      ) : null}
    </ServicePage>,
  )
}

/** Why a request failed, in lines of text. */
export function problemPage(language: Language, lines: string[]): string {
  const messages = FORM_MESSAGES[language].errorPage
  return render(
    <ServicePage language={language} title={messages.title}>
      <Problems items={lines} />
      <p className="hint">{messages.backHint}</p>
    </ServicePage>,
  )
}

/** The confirmation link's page: one button, whose POST confirms the subscription. */
export function confirmPage(
  language: Language,
  list: string,
  button: string,
  action: string,
): string {
  const messages = FORM_MESSAGES[language].confirmPage
  return actionPage(language, {
    title: messages.title,
    // A function, so that `$&` and its like in a list's name are text, not replacement patterns.
    lead: messages.lead.replace('{list}', () => list),
    button,
    action,
  })
}

/** A page of an e-mail's link that acts only when its one button is pressed (a POST). */
export function actionPage(
  language: Language,
  parts: { title: string; lead: string; button: string; action: string },
): string {
  return render(
    <ServicePage language={language} title={parts.title}>
      <p>{parts.lead}</p>
      <ActionForm action={parts.action} button={parts.button} />
    </ServicePage>,
  )
}
