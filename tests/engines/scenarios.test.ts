/**
 * What a visitor does, in every engine a visitor uses: Chromium, Firefox (Gecko) and WebKit,
 * written once against the tests' own driver (`driver.ts`). A failure names its engine.
 * `ENGINES=firefox npm test -- engines` runs one engine.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Driver, ENGINES, type Engine, launch, missing } from './driver'
import { type Site, startSite } from './site'

const chosen = (process.env.ENGINES ?? ENGINES.join(','))
  .split(',')
  .map((name) => name.trim())
  .filter((name): name is Engine => (ENGINES as readonly string[]).includes(name))

/** The four trackers' hosts: analytics and Ads both load from Google's tag host. */
const TRACKER_HOSTS = ['www.googletagmanager.com', 'snap.licdn.com', 'static.ads-twitter.com']
/** What a browser asks its maker's hosts for by itself (settings, safe browsing): not the site's. */
const BROWSER_OWN =
  /^accounts\.google\.com$|(^|\.)(mozilla\.(com|net|org)|firefox\.com|mozaws\.net|gvt1\.com|googleapis\.com)$/
/** The hosts other than the site that the site's pages asked for. */
const hosts = () => site.hosts().filter((host) => !BROWSER_OWN.test(host))
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

let site: Site

beforeAll(async () => {
  site = await startSite()
}, 300_000)

afterAll(async () => {
  await site?.close()
})

/** What the probe recorded on the page now shown. */
const problems = (driver: Driver) =>
  driver.run<string[]>('() => window.__problems ?? ["the probe did not run"]')

/**
 * Waits until `script` (run in the page) returns something truthy; returns it. Scripts return
 * plain values: an element does not cross from every engine.
 */
async function until<T>(
  driver: Driver,
  script: string,
  what: string,
  timeoutMs = 8000,
): Promise<T> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const value = await driver.run<T>(script).catch(() => undefined)
    if (value) return value
    if (Date.now() > end) throw new Error(`${driver.engine}: ${what} (waited ${timeoutMs} ms)`)
    await new Promise((done) => setTimeout(done, 50))
  }
}

/**
 * Marks the first element matching `selector` whose text (or accessible label) is `text`, so the
 * driver can click it by a selector of its own.
 */
async function pick(driver: Driver, selector: string, text: string | RegExp): Promise<string> {
  const source = text instanceof RegExp ? text.source : text
  const flags = text instanceof RegExp ? text.flags : ''
  const literal = !(text instanceof RegExp)
  await until(
    driver,
    `() => {
      const wanted = ${JSON.stringify(source)}
      const matches = (value) => ${literal}
        ? value.replace(/\\s+/g, ' ').trim() === wanted
        : new RegExp(wanted, ${JSON.stringify(flags)}).test(value)
      for (const element of document.querySelectorAll('[data-engine-pick]')) element.removeAttribute('data-engine-pick')
      const found = [...document.querySelectorAll(${JSON.stringify(selector)})].find((element) =>
        matches(element.textContent ?? '') || matches(element.getAttribute('aria-label') ?? ''))
      if (!found) return false
      found.setAttribute('data-engine-pick', '')
      return true
    }`,
    `no ${selector} named ${String(text)}`,
  )
  return '[data-engine-pick]'
}

/** A fresh visitor: no cookies, storage, service worker or caches of this site. */
async function forget(driver: Driver) {
  await driver.goto(`${site.origin}/en/404/`)
  await driver.run(`async () => {
    for (const cookie of document.cookie.split(';')) {
      const name = cookie.split('=')[0].trim()
      if (name) document.cookie = name + '=; max-age=0; path=/'
    }
    localStorage.clear()
    sessionStorage.clear()
    for (const registration of (await navigator.serviceWorker?.getRegistrations()) ?? []) {
      await registration.unregister()
    }
    if (window.caches) for (const name of await caches.keys()) await caches.delete(name)
  }`)
}

/** A visitor who has answered the banner: rejected all (as the Playwright suite starts). */
async function decided(driver: Driver) {
  await driver.goto(`${site.origin}/en/404/`)
  await driver.run(`() => {
    for (const name of ['cookieconsent_analytics', 'cookieconsent_conversion']) {
      document.cookie = name + '=deny; path=/; max-age=3600'
    }
    document.cookie = 'cookieconsent_revision=1; path=/; max-age=3600'
  }`)
}

const markDocument = (driver: Driver) => driver.run('() => { window.__sameDocument = true }')
const sameDocument = (driver: Driver) => driver.run<boolean>('() => window.__sameDocument === true')

describe.each(chosen)('%s', (engine) => {
  const absent = missing(engine)
  let driver: Driver

  beforeAll(async () => {
    if (absent) throw new Error(`${engine} cannot run: ${absent} (.ci/run installs it)`)
    driver = await launch(engine, { proxy: site.proxy })
    await driver.resize(1280, 900)
  }, 120_000)

  afterAll(async () => {
    await driver?.close()
  })

  it('loads /en/ and /de/ for a first-time visitor with no page error and no console error', async () => {
    for (const path of ['/en/', '/de/']) {
      await forget(driver)
      await driver.goto(`${site.origin}${path}`)
      // The banner asks (its code loads after the first paint), in the page's language.
      await until(driver, '() => !!document.querySelector("[role=dialog]")', `${path}: no banner`)
      expect(await driver.run('() => document.documentElement.lang'), `${engine} ${path}`).toBe(
        path.slice(1, 3),
      )
      await new Promise((done) => setTimeout(done, 500))
      expect(await problems(driver), `${engine} ${path}`).toEqual([])
    }
  })

  it('asks first: nothing goes to another host before consent, nor after rejecting; the four trackers after accepting, none after withdrawing', async () => {
    await forget(driver)
    site.clearHosts()
    await driver.goto(`${site.origin}/en/`)
    await until(driver, '() => !!document.querySelector("[role=dialog]")', 'no banner')
    await driver.click(await pick(driver, 'a', 'About us'))
    await until(driver, '() => location.pathname === "/en/about/"', 'no navigation')
    expect(hosts(), `${engine} before consent`).toEqual([])

    await driver.click(await pick(driver, '[role=dialog] button', 'Reject all'))
    await until(driver, '() => !document.querySelector("[role=dialog]")', 'banner stays')
    await driver.reload()
    await new Promise((done) => setTimeout(done, 500))
    expect(hosts(), `${engine} after rejecting`).toEqual([])

    await forget(driver)
    await driver.goto(`${site.origin}/en/`)
    await driver.click(await pick(driver, '[role=dialog] button', 'Accept all'))
    const end = Date.now() + 8000
    while (!TRACKER_HOSTS.every((host) => hosts().includes(host)) && Date.now() < end) {
      await new Promise((done) => setTimeout(done, 100))
    }
    expect([...new Set(hosts())].sort(), `${engine} after accepting`).toEqual(
      [...TRACKER_HOSTS].sort(),
    )

    // Withdrawn in the footer's settings: the next page loads nothing from another host.
    await driver.click(await pick(driver, 'footer a, footer button', 'Cookie settings'))
    await driver.click(await pick(driver, '[role=dialog] button', 'Reject all'))
    site.clearHosts()
    await driver.goto(`${site.origin}/en/`)
    await new Promise((done) => setTimeout(done, 500))
    expect(hosts(), `${engine} after withdrawing`).toEqual([])
  })

  it('navigates on the client: no reload, back and forward, scroll restored, a hash address scrolled to, hover prefetch', async () => {
    await decided(driver)
    await driver.goto(`${site.origin}/en/`)
    await until(driver, '() => window.__problems && document.readyState === "complete"', 'no load')
    await markDocument(driver)
    await driver.hover(await pick(driver, 'nav a', 'About us'))
    await until(
      driver,
      `() => performance.getEntriesByType('resource').some((entry) => entry.name.includes('/page-data/en/about/page-data.json'))`,
      'hover did not prefetch the page data',
    )
    const scrolled = await driver.run<number>(
      '() => { window.scrollTo(0, 600); return window.scrollY }',
    )
    expect(scrolled, engine).toBeGreaterThan(0)
    // By keyboard, so that nothing scrolls the link into view first.
    await driver.run(
      '() => document.querySelector("[data-engine-pick]").focus({ preventScroll: true })',
    )
    await driver.press('Enter')
    await until(driver, '() => location.pathname === "/en/about/"', 'no client navigation')
    expect(await sameDocument(driver), `${engine}: reloaded`).toBe(true)
    await driver.back()
    await until(driver, '() => location.pathname === "/en/"', 'back did not return')
    expect(await sameDocument(driver), `${engine}: back reloaded`).toBe(true)
    await until(driver, '() => Math.abs(window.scrollY - 600) < 40', 'scroll not restored')
    await driver.forward()
    await until(driver, '() => location.pathname === "/en/about/"', 'forward did not go')
    expect(await sameDocument(driver), `${engine}: forward reloaded`).toBe(true)
    // An address with a hash shows that part of the page.
    await driver.goto(`${site.origin}/en/support/faq/`)
    const id = await driver.run<string>(
      '() => [...document.querySelectorAll("details[id]")].at(-1)?.id ?? ""',
    )
    expect(id, engine).not.toBe('')
    await driver.goto(`${site.origin}/en/support/faq/#${id}`)
    await until(
      driver,
      `() => { const d = document.getElementById(${JSON.stringify(id)}); if (!d?.open) return false; const top = d.getBoundingClientRect().top; return top >= -5 && top < innerHeight / 2 }`,
      'the answer of the hash is not open and in view',
    )
    expect(await problems(driver), engine).toEqual([])
  })

  it('switches language to the same page, and answers unknown addresses with the 404 page of their language', async () => {
    await decided(driver)
    await driver.goto(`${site.origin}/en/about/`)
    await driver.click(await pick(driver, 'nav a', 'Deutsch'))
    await until(driver, '() => location.pathname === "/de/about/"', 'no German page')
    await until(driver, '() => document.documentElement.lang === "de"', 'lang not de')
    for (const [path, lang] of [
      ['/en/no-such-page/', 'en'],
      ['/de/keine-seite/', 'de'],
    ] as const) {
      await driver.goto(`${site.origin}${path}`)
      expect(await driver.run('() => document.documentElement.lang'), `${engine} ${path}`).toBe(
        lang,
      )
      const heading = await driver.run<string>('() => document.querySelector("h1")?.textContent')
      expect(heading, `${engine} ${path}`).toMatch(lang === 'en' ? /not found/i : /nicht gefunden/i)
      expect(await problems(driver), `${engine} ${path}`).toEqual([])
    }
  })

  it('axe-core finds nothing on sample pages in both languages', async () => {
    await decided(driver)
    for (const path of [
      '/en/',
      '/de/',
      '/en/support/faq/',
      '/de/newsletter/',
      '/en/exchange-rates/',
    ]) {
      await driver.goto(`${site.origin}${path}`)
      await driver.run(`() => { ${AXE}\n;window.axe = axe }`)
      const found = await driver.run<string[]>(`async () => {
        const result = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })
        return result.violations.map((v) => v.id + ': ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', '))
      }`)
      expect(found, `${engine} ${path}`).toEqual([])
    }
  })
})
