/** Updates the document head after a client navigation, as the build wrote it for a full load. */
import type { PageHead } from '../../shared/types'

function setMeta(name: string, content: string): void {
  let element = document.head.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)
  if (!element) {
    element = document.createElement('meta')
    element.name = name
    document.head.append(element)
  }
  element.content = content
}

function setLink(rel: string, href: string): void {
  let element = document.head.querySelector<HTMLLinkElement>(`link[rel="${rel}"]`)
  if (!element) {
    element = document.createElement('link')
    element.rel = rel
    document.head.append(element)
  }
  if (element.getAttribute('href') !== href) element.href = href
}

export function applyHead(head: PageHead): void {
  document.title = head.title
  const title = document.head.querySelector('title')
  if (head.titleLang) title?.setAttribute('lang', head.titleLang)
  else title?.removeAttribute('lang')
  document.documentElement.lang = head.lang
  setMeta('description', head.description)
  setLink('canonical', head.canonical)
  setLink('manifest', head.manifest)
  if (head.noindex) setMeta('robots', 'noindex')
  else document.head.querySelector('meta[name="robots"]')?.remove()
  for (const link of document.head.querySelectorAll('link[rel="alternate"]')) link.remove()
  for (const alternate of head.alternates) {
    const element = document.createElement('link')
    element.rel = 'alternate'
    element.hreflang = alternate.hreflang
    element.href = alternate.href
    document.head.append(element)
  }
  for (const feed of head.feeds) {
    const element = document.createElement('link')
    element.rel = 'alternate'
    element.type = 'application/rss+xml'
    element.title = feed.title
    element.href = feed.href
    document.head.append(element)
  }
}
