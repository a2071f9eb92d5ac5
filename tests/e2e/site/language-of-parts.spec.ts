/**
 * Language of parts (WCAG 3.1.1 and 3.1.2): text in a language other than its page's sits
 * inside an element whose `lang` names that language, so a screen reader speaks Spanish as
 * Spanish on an English page. Every built page is read as the browser parses it; the blog's
 * language-neutral pages also as a German visitor sees them.
 */
import { expect, type Page, test } from '@playwright/test'
import { isSameDocument, markDocument, openPage, waitForRouteUpdates } from '../support/helpers'
import { builtPages } from '../support/site'
import { ENDONYMS, textLanguage } from '../support/text-language'

/** A run of text as a screen reader meets it: one block's text in one language. */
interface Part {
  path: string
  /** The `lang` in force: the nearest ancestor's (or the element's own) primary subtag. */
  lang: string
  /** Whether that `lang` is the document's own (`<html lang>`), not a part's. */
  fromRoot: boolean
  text: string
  /**
   * A block's text, an attribute (`alt`, `aria-label`, `title`), the page's h1 (its title), the
   * document's `<title>`, or a link's whole text (a title in a list or a sentence).
   */
  kind: 'block' | 'attribute' | 'heading' | 'title' | 'link'
}

/**
 * The parts of each document: text nodes grouped by their nearest block (a paragraph, heading,
 * list item, cell, button…) and the element their `lang` comes from; the `alt`, `aria-label`
 * and `title` attributes; every link's text. Runs in the page, on its own document or on
 * documents fetched and parsed as the browser parses a first load.
 */
function collectParts(documents: { path: string; html?: string }[]): Part[] {
  const BLOCKS =
    'title,p,h1,h2,h3,h4,h5,h6,li,td,th,dt,dd,summary,figcaption,caption,label,button,legend,option,blockquote,div,section,article,header,footer,nav,main,aside,form,dialog'
  const langOf = (element: Element) => {
    const source = element.closest('[lang]')
    return {
      lang: (source?.getAttribute('lang') ?? '').split('-')[0]?.toLowerCase() ?? '',
      fromRoot: source === element.ownerDocument.documentElement,
    }
  }
  const tidy = (text: string) => text.replace(/\s+/g, ' ').trim()
  const parts: Part[] = []
  for (const { path, html } of documents) {
    const doc = html === undefined ? document : new DOMParser().parseFromString(html, 'text/html')
    const groups = new Map<Element, Map<Element | null, Part>>()
    const walker = doc.createTreeWalker(doc.documentElement, NodeFilter.SHOW_TEXT)
    while (walker.nextNode()) {
      const node = walker.currentNode
      const parent = node.parentElement
      if (!parent || parent.closest('script,style,template,noscript')) continue
      const block = parent.closest(BLOCKS) ?? parent
      const langElement = parent.closest('[lang]')
      const byLang = groups.get(block) ?? new Map<Element | null, Part>()
      groups.set(block, byLang)
      const group = byLang.get(langElement)
      if (group) group.text += ` ${node.textContent ?? ''}`
      else {
        const kind =
          block.tagName === 'H1' ? 'heading' : block.tagName === 'TITLE' ? 'title' : 'block'
        byLang.set(langElement, { path, ...langOf(parent), text: node.textContent ?? '', kind })
      }
    }
    for (const group of [...groups.values()].flatMap((byLang) => [...byLang.values()])) {
      group.text = tidy(group.text)
      if (group.text) parts.push(group)
    }
    for (const element of doc.querySelectorAll('[alt],[aria-label],[title]')) {
      for (const name of ['alt', 'aria-label', 'title']) {
        const value = element.getAttribute(name)
        if (value) parts.push({ path, ...langOf(element), text: value, kind: 'attribute' })
      }
    }
    for (const link of doc.querySelectorAll('a')) {
      const text = tidy(link.textContent ?? '')
      if (text) parts.push({ path, ...langOf(link), text, kind: 'link' })
    }
  }
  return parts
}

/**
 * What is wrong with the parts: text whose function words say another language than its
 * `lang`; a language's own name outside that language; a page's title (its h1) in one
 * language standing in another, as a list, a breadcrumb or a link shows it; and a document
 * title in another language than its page's h1.
 */
function problems(parts: readonly Part[], neutral: ReadonlySet<string>): string[] {
  // A title belongs to one language when every h1 with that text is in it. The h1 of a page
  // without a language of its own (the blog archive) says nothing: its language is the
  // visitor's.
  const titleLanguages = new Map<string, Set<string>>()
  for (const part of parts) {
    if (part.kind !== 'heading' || (part.fromRoot && neutral.has(part.path.split(' ')[0] ?? '')))
      continue
    titleLanguages.set(part.text, (titleLanguages.get(part.text) ?? new Set()).add(part.lang))
  }
  const headings = new Map(
    parts.filter((part) => part.kind === 'heading').map((part) => [part.path, part]),
  )
  const found = new Set<string>()
  for (const { path, lang, text, kind } of parts) {
    const detected = kind === 'link' ? undefined : textLanguage(text)
    if (detected && detected !== lang)
      found.add(`${path}: ${detected} text in lang="${lang}": ${text.slice(0, 80)}`)
    const named = ENDONYMS[text]
    if (named && named !== lang) found.add(`${path}: "${text}" in lang="${lang}"`)
    const titled = titleLanguages.get(text)
    if (titled?.size === 1 && !titled.has(lang))
      found.add(`${path}: the ${[...titled][0]} title "${text}" in lang="${lang}"`)
    const heading = headings.get(path)
    if (kind === 'title' && heading && text.includes(heading.text) && heading.lang !== lang)
      found.add(`${path}: <title> in lang="${lang}", its h1 in lang="${heading.lang}"`)
  }
  return [...found]
}

/** Pages whose interface takes the visitor's language: the blog's archive and categories. */
async function neutralPaths(): Promise<Set<string>> {
  return new Set((await builtPages()).filter((built) => !built.language).map((built) => built.path))
}

async function pagesAsParsed(page: Page, paths: readonly string[]): Promise<Part[]> {
  await page.goto('/en/')
  const documents = await page.evaluate(
    (paths) =>
      Promise.all(paths.map(async (path) => ({ path, html: await (await fetch(path)).text() }))),
    paths,
  )
  return page.evaluate(collectParts, documents)
}

test('the detector tells the five languages apart and leaves names and short text open', () => {
  expect(textLanguage('Your account is held with us, and you can reach the team by e-mail.')).toBe(
    'en',
  )
  expect(
    textLanguage('Ihr Konto wird bei uns geführt, und Sie erreichen das Team per E-Mail.'),
  ).toBe('de')
  expect(
    textLanguage('Su cuenta se mantiene en el banco y puede escribirnos para más información.'),
  ).toBe('es')
  expect(
    textLanguage(
      'Votre compte est tenu par la banque et vous pouvez nous écrire pour des questions.',
    ),
  ).toBe('fr')
  expect(
    textLanguage(
      'Il suo conto è tenuto presso la banca e può scriverci per più informazioni della carta.',
    ),
  ).toBe('it')
  expect(textLanguage('Schlichtungsstelle der Deutschen Bundesbank')).toBeUndefined()
  expect(textLanguage('Información para clientes')).toBeUndefined()
})

test('every built page marks the language of text in another language', async ({ page }) => {
  test.setTimeout(120_000)
  const paths = (await builtPages()).map((built) => built.path)
  expect(paths.length).toBeGreaterThan(100)
  const parts = await pagesAsParsed(page, paths)
  expect(problems(parts, await neutralPaths())).toEqual([])
})

test('the blog, as English and German visitors see it, marks every post of the other language', async ({
  browser,
}) => {
  test.setTimeout(180_000)
  const paths = (await builtPages()).filter((built) => !built.language).map((built) => built.path)
  expect(paths.length).toBeGreaterThan(5)
  // Both languages' walks together: a category named alike in both ("Engineering") is then
  // known as a title of both, not of one.
  const parts: Part[] = []
  for (const [locale, language] of [
    ['en-GB', 'en'],
    ['de-DE', 'de'],
  ] as const) {
    const context = await browser.newContext({ locale })
    const page = await context.newPage()
    for (const path of paths) {
      await openPage(page, path)
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(language)
      parts.push(...(await page.evaluate(collectParts, [{ path: `${path} (${language})` }])))
    }
    await context.close()
  }
  // Every post's title, from its own page, so a teaser's title is known by its language.
  const posts = (await builtPages()).filter((built) => built.template === 'blog-post')
  expect(posts.length).toBeGreaterThan(5)
  const page = await browser.newPage()
  const titles = await pagesAsParsed(
    page,
    posts.map((post) => post.path),
  )
  await page.close()
  parts.push(...titles.filter((part) => part.kind === 'heading'))
  expect(problems(parts, await neutralPaths())).toEqual([])
})

for (const [language, prefix, overview] of [
  ['en', 'Navigated to', 'Customer information'],
  ['de', 'Seite geladen:', 'Kundeninformationen'],
] as const) {
  test(`${language}: a page for customers in Spain says its title is Spanish, after a client navigation too`, async ({
    page,
  }) => {
    await openPage(page, `/${language}/customer-information/`)
    await expect(page.locator('h1')).toHaveText(overview)
    const link = page
      .locator('main')
      .getByRole('link', { name: 'Información para clientes', exact: true })
    await expect(link).toHaveAttribute('lang', 'es')
    await markDocument(page)
    await link.click()
    await waitForRouteUpdates(page, 2)
    expect(await isSameDocument(page)).toBe(true)
    await expect(page.locator('main article')).toHaveAttribute('lang', 'es')
    await expect(page.locator('title')).toHaveAttribute('lang', 'es')
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(language)
    // The announcement speaks its prefix in the page's language and the title in Spanish.
    const announcer = page.locator('#route-announcer')
    await expect(announcer).toHaveText(`${prefix} Información para clientes | Lumora Bank`)
    await expect(announcer.locator('span[lang="es"]')).toHaveText(
      'Información para clientes | Lumora Bank',
    )
    await expect(
      page
        .getByRole('navigation', { name: /Breadcrumb|Brotkrumennavigation/ })
        .locator('[aria-current]'),
    ).toHaveAttribute('lang', 'es')
    // Back to a page in the site's language: the title's own language goes.
    await page.goBack()
    await waitForRouteUpdates(page, 3)
    await expect(page.locator('h1')).toHaveText(overview)
    await expect(page.locator('title')).not.toHaveAttribute('lang')
    await expect(announcer.locator('span')).toHaveCount(0)
  })
}
