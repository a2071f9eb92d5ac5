/**
 * The line at the top of every page of a draft's whole-site preview: testers could not tell
 * the preview from the live site. It is put into each HTML page as it is served (before the
 * site's root, so the site's hydration and its navigation leave it alone), in the page's
 * language, styled by a `style` attribute (the site's policy allows attributes, never a
 * stylesheet of the service's), and has no link, so the page's skip link stays the first stop.
 */
import { escapeHtml } from '../../shared/html'

const TEXTS = {
  en: {
    label: 'Preview',
    text: 'Preview of a draft: this is how the site will look once the draft is published. The live site has not changed.',
  },
  de: {
    label: 'Vorschau',
    text: 'Vorschau eines Entwurfs: So wird die Website aussehen, sobald der Entwurf veröffentlicht ist. Die veröffentlichte Website ist unverändert.',
  },
} as const

const STYLE = [
  'position:sticky',
  'top:0',
  'z-index:2147483000',
  'margin:0',
  'padding:.5rem 1rem',
  'background:#1f1a17',
  'color:#fff',
  'font:600 .95rem/1.4 system-ui,sans-serif',
  'text-align:center',
].join(';')

/** `html` with the preview's line first in its body. */
export function withPreviewBanner(html: string): string {
  const language = /<html[^>]*\slang="de"/.test(html) ? 'de' : 'en'
  const { label, text } = TEXTS[language]
  const banner = `<aside aria-label="${escapeHtml(label)}" data-preview-banner="" style="${STYLE}"><p style="margin:0">${escapeHtml(text)}</p></aside>`
  return html.replace(/<body[^>]*>/, (body) => `${body}\n${banner}`)
}
