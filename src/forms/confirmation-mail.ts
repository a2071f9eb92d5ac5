/**
 * The double opt-in e-mail: the list's own words (content store), the confirmation link, an
 * unsubscribe link (also as `List-Unsubscribe` with one-click POST, RFC 8058) and the sender's
 * identity, in the subscriber's language, as HTML and plain text.
 */

import type { MailingList } from '../content/schema/forms'
import type { Mail } from '../mail/transport'
import { escapeHtml } from '../shared/html'
import type { Language } from '../shared/languages'
import type { SiteSettings } from '../shared/types'

/** The unsubscribe link's label; everything else the list's content says. */
const UNSUBSCRIBE: Record<Language, string> = { en: 'Unsubscribe', de: 'Abmelden' }

export interface ConfirmationLinks {
  confirm: string
  unsubscribe: string
}

export function confirmationMail(
  to: string,
  list: MailingList,
  language: Language,
  links: ConfirmationLinks,
  settings: SiteSettings,
): Mail {
  const { address } = settings
  const sender = `${settings.legalEntity}, ${address.street}, ${address.postalCode} ${address.city}, ${address.country}`
  const body = list.mail.body[language]
  const paragraphs = body
    .split(/\n\s*\n/)
    .map((part) => part.trim())
    .filter(Boolean)
  const text = [
    ...paragraphs,
    `${list.mail.button[language]}: ${links.confirm}`,
    '-- ',
    sender,
    `${UNSUBSCRIBE[language]}: ${links.unsubscribe}`,
  ].join('\n\n')
  const html = `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(list.mail.subject[language])}</title></head>
<body style="margin:0;padding:24px;background:#f6f7f9;font-family:Arial,Helvetica,sans-serif;color:#1c1b1a;line-height:1.5">
<main style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">
<p style="margin:0 0 24px;font-weight:bold;font-size:18px">${escapeHtml(settings.brandName)}</p>
${paragraphs.map((part) => `<p style="margin:0 0 16px">${escapeHtml(part)}</p>`).join('\n')}
<p style="margin:24px 0"><a href="${escapeHtml(links.confirm)}" style="display:inline-block;background:#b34700;color:#ffffff;text-decoration:none;font-weight:bold;padding:12px 20px;border-radius:6px">${escapeHtml(list.mail.button[language])}</a></p>
</main>
<footer style="max-width:560px;margin:16px auto 0;font-size:12px;color:#57534e">
<p style="margin:0 0 8px">${escapeHtml(sender)}</p>
<p style="margin:0"><a href="${escapeHtml(links.unsubscribe)}" style="color:#57534e">${escapeHtml(UNSUBSCRIBE[language])}</a></p>
</footer>
</body>
</html>
`
  return {
    to,
    subject: list.mail.subject[language],
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${links.unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  }
}
