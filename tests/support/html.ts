/**
 * The service's screens read as a browser and a screen reader would, not as strings: the
 * document, and the text an element says to a screen reader (without what it hides from one).
 */
import { JSDOM } from 'jsdom'

export function documentOf(html: string): Document {
  return new JSDOM(html).window.document
}

/** An element's text as read out: what is `aria-hidden` left out, white space collapsed. */
export function spokenText(element: Element | null | undefined): string | undefined {
  if (!element) return undefined
  const copy = element.cloneNode(true) as Element
  for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove()
  return (copy.textContent ?? '').replace(/\s+/g, ' ').trim()
}

/** The buttons of a piece of a screen, by their text. */
export function buttonsOf(html: string): string[] {
  return [...documentOf(html).querySelectorAll('button')].map((button) => spokenText(button) ?? '')
}

/**
 * A screen's markup with React's boolean attributes written as HTML writes them by hand
 * (`disabled=""` is `disabled`, `<input …/>` is `<input …>`), so a test may look for a button
 * as a person would write it.
 */
export const markup = (html: string) => html.replaceAll('=""', '').replaceAll('"/>', '">')
