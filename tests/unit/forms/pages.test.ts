/**
 * The forms service's own pages (src/forms/pages.tsx) as HTML, read back with jsdom:
 * their texts in each language, whatever an editor or visitor wrote escaped, no inline script
 * or style, the stylesheet they link; and the files they load (`/api/pages.css`, Inter under
 * `/api/fonts/`) as the service serves them: type, cache, the service's policy, GET and HEAD
 * only.
 */
import { JSDOM } from 'jsdom'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  PAGES_FONT_CACHE,
  PAGES_STYLESHEET,
  PAGES_STYLESHEET_CACHE,
} from '../../../src/forms/page-files'
import { actionPage, confirmPage, errorPage, problemPage } from '../../../src/forms/pages'
import type { ListForm, SurveyForm } from '../../../src/shared/forms/definition'
import { FORM_MESSAGES } from '../../../src/shared/forms/messages'
import { API_CONTENT_SECURITY_POLICY } from '../../../src/shared/http-headers'
import { LANGUAGES } from '../../../src/shared/languages'
import { startService, type TestService } from '../../support/forms'

const HOSTILE = '<script>alert(1)</script>'

const survey = (label: string): SurveyForm => ({
  kind: 'survey',
  id: 'survey',
  language: 'en',
  name: 'Survey',
  version: 'v1',
  questions: [{ id: 'role', type: 'text', label, required: true, maxLength: 100 }],
  submit: 'Send',
  action: '/api/forms/survey',
  successPath: '/en/survey-success/',
})

const newsletter: ListForm = {
  kind: 'list',
  id: 'newsletter',
  language: 'de',
  name: 'Newsletter',
  version: 'v1',
  consent: 'Ja',
  topics: { legend: 'Themen', options: [{ id: 'services', label: 'Leistungen' }] },
  submit: 'Abonnieren',
  action: '/api/forms/newsletter',
  successPath: '/de/newsletter-success/',
}

/** A page's document, as a browser reads it. */
const read = (html: string) => new JSDOM(html).window.document

/** What every page of the service is: the site's frame, its stylesheet, nothing inline. */
function expectFrame(html: string, language: string, title: string) {
  expect(html.startsWith('<!doctype html>\n<html')).toBe(true)
  const document = read(html)
  expect(document.documentElement.lang).toBe(language)
  expect(document.title).toBe(title)
  expect(document.querySelector('h1')?.textContent).toBe(title)
  expect(document.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex')
  // One stylesheet, the service's; no inline style or script of any kind.
  expect(
    [...document.querySelectorAll('link[rel="stylesheet"]')].map((link) =>
      link.getAttribute('href'),
    ),
  ).toEqual([PAGES_STYLESHEET])
  expect(document.querySelectorAll('style, script, [style]')).toHaveLength(0)
  expect(html).not.toMatch(/\son\w+=/i)
  // Nothing from another host: every address is a path of the site.
  for (const element of document.querySelectorAll('[href], [src], [action]')) {
    const address =
      element.getAttribute('href') ?? element.getAttribute('src') ?? element.getAttribute('action')
    expect(address).toMatch(/^\/(?![/\\])/)
  }
  // The bank's mark (decoration) and name at the top.
  const brand = document.querySelector('header .brand')
  expect(brand?.textContent).toBe('Lumora Bank')
  expect(brand?.querySelector('svg.mark')?.getAttribute('aria-hidden')).toBe('true')
  return document
}

describe('the pages', () => {
  it('list what to correct, escaping a label an editor wrote, with a link back', () => {
    const html = errorPage(
      survey(HOSTILE),
      [
        { field: 'answers.role', code: 'required' },
        { field: 'answers.other', code: 'unknown' },
      ],
      '/en/survey/?x="><script>alert(2)</script>',
    )
    const document = expectFrame(html, 'en', FORM_MESSAGES.en.errorPage.title)
    expect(html).not.toContain('<script')
    const items = [...document.querySelectorAll('main li')].map((item) => item.textContent)
    expect(items).toEqual([
      `${HOSTILE}: ${FORM_MESSAGES.en.errors.required}`,
      FORM_MESSAGES.en.errors.unknown,
    ])
    expect(document.querySelector('main li strong')?.textContent).toBe(`${HOSTILE}:`)
    expect(document.querySelector('main p')?.textContent).toBe('Please correct 2 entries:')
    const back = document.querySelector('main a')
    expect(back?.textContent).toBe(FORM_MESSAGES.en.errorPage.back)
    expect(back?.getAttribute('href')).toBe('/en/survey/?x="><script>alert(2)</script>')
    expect(document.querySelectorAll('form, button')).toHaveLength(0)
  })

  it('say the same in German, and leave the link out when the form is not known', () => {
    const html = errorPage(newsletter, [{ field: 'email', code: 'email' }], undefined)
    const document = expectFrame(html, 'de', 'Bitte prüfen Sie Ihre Angaben')
    expect(document.querySelector('main p')?.textContent).toBe('Bitte korrigieren Sie 1 Angabe:')
    expect(document.querySelector('main li')?.textContent).toBe(
      `E-Mail-Adresse: ${FORM_MESSAGES.de.errors.email}`,
    )
    expect(document.querySelector('.hint')?.textContent).toBe(FORM_MESSAGES.de.errorPage.backHint)
    expect(document.querySelectorAll('main a')).toHaveLength(0)
  })

  it.each(LANGUAGES)('say why a request failed (%s)', (language) => {
    const line = FORM_MESSAGES[language].failed.rateLimited
    const document = expectFrame(
      problemPage(language, [line]),
      language,
      FORM_MESSAGES[language].errorPage.title,
    )
    expect([...document.querySelectorAll('main li')].map((item) => item.textContent)).toEqual([
      line,
    ])
    expect(document.querySelector('.hint')?.textContent).toBe(
      FORM_MESSAGES[language].errorPage.backHint,
    )
  })

  it.each(LANGUAGES)(
    'confirm with one button, whose POST is the only thing the page does (%s)',
    (language) => {
      const action = `/api/subscriptions/confirm?token=abc-123&lang=${language}`
      const list = `List ${HOSTILE} $& $'`
      const html = confirmPage(language, list, `Go ${HOSTILE}`, action)
      const document = expectFrame(html, language, FORM_MESSAGES[language].confirmPage.title)
      expect(html).not.toContain('<script')
      // The list's name as written, `$&` and all (no replacement pattern).
      expect(document.querySelector('main p')?.textContent).toBe(
        FORM_MESSAGES[language].confirmPage.lead.replace('{list}', () => list),
      )
      const forms = document.querySelectorAll('form')
      expect(forms).toHaveLength(1)
      expect(forms[0]?.getAttribute('method')).toBe('post')
      expect(forms[0]?.getAttribute('action')).toBe(action)
      expect(html).toContain(`action="${action.replace('&', '&amp;')}"`)
      const buttons = document.querySelectorAll('button')
      expect(buttons).toHaveLength(1)
      expect(buttons[0]?.getAttribute('type')).toBe('submit')
      expect(buttons[0]?.textContent).toBe(`Go ${HOSTILE}`)
      expect(document.querySelectorAll('a, input')).toHaveLength(0)
    },
  )

  it('unsubscribe the same way', () => {
    const texts = FORM_MESSAGES.de.unsubscribePage
    const document = expectFrame(
      actionPage('de', {
        title: texts.title,
        lead: texts.lead,
        button: texts.button,
        action: '/api/subscriptions/unsubscribe?token=t',
      }),
      'de',
      texts.title,
    )
    expect(document.querySelector('form button')?.textContent).toBe(texts.button)
  })
})

describe('the files the pages load, as the service serves them', () => {
  let service: TestService
  beforeAll(async () => {
    service = await startService({})
  }, 30_000)
  afterAll(async () => {
    await service?.close()
  })

  /** The service's headers, on every answer under /api/. */
  const expectServiceHeaders = (headers: Record<string, unknown>) => {
    expect(headers).toMatchObject({
      'content-security-policy': API_CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
    })
  }

  it('links from a page a stylesheet of the site tokens, Inter from /api/ and the page rules', async () => {
    const page = await service.app.inject({
      method: 'POST',
      url: '/api/forms/newsletter',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=nope&language=de',
    })
    expect(page.statusCode).toBe(422)
    expectServiceHeaders(page.headers)
    const href = read(page.body).querySelector('link[rel="stylesheet"]')?.getAttribute('href')
    const response = await service.app.inject(String(href))
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('text/css; charset=utf-8')
    expect(response.headers['cache-control']).toBe(PAGES_STYLESHEET_CACHE)
    expect(response.headers.etag).toMatch(/^"[\w-]+"$/)
    expectServiceHeaders(response.headers)
    const css = response.body
    // The site's tokens and brand colour, Inter's faces, and the pages' own rules.
    expect(css).toContain('--color-brand:#e4650f')
    expect(css).toContain('--color-accent:#b34700')
    expect(css).toContain('--font-sans:"Inter Variable"')
    expect(css).toContain('.problems{')
    expect(css).toContain('button:focus-visible')
    // Every font it names is served here; none comes from another host or the package's path.
    const fonts = [...css.matchAll(/url\(([^)]+)\)/g)].map((match) =>
      String(match[1]).replace(/^["']|["']$/g, ''),
    )
    expect(fonts.sort()).toEqual([
      '/api/fonts/inter-latin-ext-wght-normal.woff2',
      '/api/fonts/inter-latin-wght-normal.woff2',
    ])
    for (const font of fonts) {
      const file = await service.app.inject(font)
      expect(file.statusCode, font).toBe(200)
      expect(file.headers['content-type'], font).toBe('font/woff2')
      expect(file.headers['cache-control'], font).toBe(PAGES_FONT_CACHE)
      expect(file.rawPayload.subarray(0, 4).toString('latin1'), font).toBe('wOF2')
      expectServiceHeaders(file.headers)
    }
  })

  it('answers HEAD as GET without the body, and 304 to the copy a browser has', async () => {
    const get = await service.app.inject(PAGES_STYLESHEET)
    const head = await service.app.inject({ method: 'HEAD', url: PAGES_STYLESHEET })
    expect(head.statusCode).toBe(200)
    expect(head.body).toBe('')
    expect(head.headers['content-type']).toBe(get.headers['content-type'])
    expect(head.headers.etag).toBe(get.headers.etag)
    expectServiceHeaders(head.headers)
    for (const tag of [
      String(get.headers.etag),
      `W/${get.headers.etag}`,
      `"x", ${get.headers.etag}`,
    ]) {
      const again = await service.app.inject({
        url: PAGES_STYLESHEET,
        headers: { 'if-none-match': tag },
      })
      expect(again.statusCode, tag).toBe(304)
      expect(again.body, tag).toBe('')
      expect(again.headers['cache-control'], tag).toBe(PAGES_STYLESHEET_CACHE)
      expectServiceHeaders(again.headers)
    }
    const changed = await service.app.inject({
      url: PAGES_STYLESHEET,
      headers: { 'if-none-match': '"older"' },
    })
    expect(changed.statusCode).toBe(200)
  })

  it('takes GET and HEAD only, refusing other methods before a body is read', async () => {
    for (const url of [PAGES_STYLESHEET, '/api/fonts/inter-latin-wght-normal.woff2']) {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const) {
        const response = await service.app.inject({
          method,
          url,
          headers: { 'content-type': 'text/css' },
          payload: 'body{}',
        })
        expect(response.statusCode, `${method} ${url}`).toBe(405)
        expect(response.headers.allow, `${method} ${url}`).toBe('GET, HEAD')
        expectServiceHeaders(response.headers)
      }
    }
    // The stylesheet is as it was.
    const after = await service.app.inject(PAGES_STYLESHEET)
    expect(after.body).not.toContain('body{}')
  })

  it('serves no other file under /api/fonts/', async () => {
    for (const url of [
      '/api/fonts/inter-cyrillic-wght-normal.woff2',
      '/api/fonts/..%2Fpackage.json',
      '/api/fonts/%2E%2E%2F%2E%2E%2Fpackage.json',
      '/api/fonts/',
    ]) {
      const response = await service.app.inject(url)
      expect(response.statusCode, url).toBe(404)
      expect(response.body, url).not.toContain('"name"')
      expectServiceHeaders(response.headers)
    }
  })
})
