/**
 * The page shell of the bare document written as text (the editor's page of `npm run dev`): a
 * document no search engine indexes, readable on a phone. The services' pages are React
 * (`src/publishing/pages/screen.tsx` and `editor.tsx`, `src/forms/pages.tsx`, with
 * `src/shared/service-head.tsx`); the site's pages have their own, richer head
 * (`src/engine/pages/html-document.ts`).
 */
import { escapeHtml } from './html'

export interface HtmlPage {
  /** The language of the page's text (`lang`). */
  language: string
  /** Its title, as text. */
  title: string
  /** Elements of its head after the title (icon, stylesheet), one a line. */
  head?: readonly string[]
  /** Its body's markup. */
  body: string
}

/** The whole document of a page. */
export function htmlPage({ language, title, head = [], body }: HtmlPage): string {
  return [
    '<!doctype html>',
    `<html lang="${escapeHtml(language)}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${escapeHtml(title)}</title>`,
    ...head,
    '</head>',
    '<body>',
    body,
    '</body>',
    '</html>',
    '',
  ].join('\n')
}
