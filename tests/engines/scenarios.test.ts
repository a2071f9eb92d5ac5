/**
 * What a visitor does, in every engine a visitor uses: Chromium, Firefox (Gecko) and WebKit,
 * written once against the tests' own driver (`driver.ts`). A failure names its engine.
 * `ENGINES=firefox npm test -- engines` runs one engine.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readOutbox } from '../../src/mail/transport'
import { ANNOUNCER_ELEMENT_ID } from '../../src/shared/constants'
import { type Driver, ENGINES, type Engine, launch, missing } from './driver'
import { FRAME_PATH, NO_SCRIPT_COOKIE, type Site, startSite } from './site'

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
    // A worker still installing is let finish first (5 s at most).
    const end = Date.now() + 5000
    while ((await navigator.serviceWorker?.getRegistration())?.installing && Date.now() < end) {
      await new Promise((done) => setTimeout(done, 50))
    }
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

/** What an engine cannot do, said in one line (docs/testing.md lists them): never a silent skip. */
const cannot = (engine: Engine, what: string) => console.info(`${engine} cannot ${what}`)

/** Waits until the runtime has started on the page now shown (it starts after the first paint). */
const started = (driver: Driver) =>
  until(driver, '() => !!history.state?.key', 'the runtime did not start')

/** Clicks a form control by its label (custom-styled controls are clicked where a visitor does). */
const clickLabel = (driver: Driver, id: string) => driver.click(`label[for="${id}"]`)

/** Puts the text into the field: focused by a click, typed by keys. */
async function fill(driver: Driver, selector: string, text: string) {
  await driver.click(selector)
  await driver.type(text)
}

/** The newest mail the site wrote to `to` (no SMTP_URL: the outbox), waited for. */
async function mailTo(to: string): Promise<string> {
  const end = Date.now() + 8000
  for (;;) {
    const mail = (await readOutbox(site.outbox)).filter((each) => each.to.includes(to)).at(-1)
    if (mail) return mail.text
    if (Date.now() > end) throw new Error(`no mail to ${to} in ${site.outbox}`)
    await new Promise((done) => setTimeout(done, 100))
  }
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
      await started(driver)
      // Loaded and run in one script, in the page as its runtime left it.
      const found = await driver.run<string[]>(`async () => {
        ${AXE}
        const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })
        return result.violations.map((v) => v.id + ': ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', '))
      }`)
      expect(found, `${engine} ${path}`).toEqual([])
    }
  })

  it('searches by keyboard: / opens the dialog, the count is read out, arrows and Enter open a result in the page', async () => {
    await decided(driver)
    await driver.goto(`${site.origin}/en/`)
    await started(driver)
    await markDocument(driver)
    await driver.press('Slash')
    await until(
      driver,
      '() => document.activeElement?.matches("[data-search-dialog] input[type=search]")',
      'the search field has no focus after /',
    )
    await driver.type('lost card')
    const count = await until<string>(
      driver,
      `() => { const text = document.querySelector('[data-search-dialog] [role=status]')?.textContent?.trim() ?? ''; return /^\\d+ results?$/.test(text) && text }`,
      'no result count read out',
    )
    expect(count, engine).toMatch(/^\d+ results?$/)
    await driver.press('ArrowDown')
    const href = await until<string>(
      driver,
      '() => document.activeElement?.matches("a[data-search-result]") && document.activeElement.getAttribute("href")',
      'ArrowDown did not reach the first result',
    )
    await driver.press('Enter')
    const path = new URL(href, site.origin).pathname
    await until(
      driver,
      `() => location.pathname === ${JSON.stringify(path)}`,
      'Enter did not open it',
    )
    expect(await sameDocument(driver), `${engine}: reloaded`).toBe(true)
    await until(
      driver,
      '() => !document.querySelector("[data-search-dialog]")?.checkVisibility?.() ?? true',
      'the dialog stays open',
    )
    expect(await problems(driver), engine).toEqual([])
  })

  it('opens a FAQ answer by its address, and copies its link (or follows it where the clipboard is refused)', async () => {
    await decided(driver)
    await driver.goto(`${site.origin}/en/support/faq/`)
    const id = await driver.run<string>('() => document.querySelector("details[id]")?.id ?? ""')
    // The answer's address opened as a visitor opens it, a new document: from the FAQ page
    // itself, only the fragment would change, a same-document step with no state of the
    // runtime's (whether the runtime had started before it decided the outcome: a flake).
    await driver.goto(`${site.origin}/en/404/`)
    await driver.goto(`${site.origin}/en/support/faq/#${id}`)
    await started(driver)
    await until(driver, `() => document.getElementById(${JSON.stringify(id)})?.open`, 'not open')
    await driver.run('() => window.scrollTo(0, 0)')
    await driver.run('() => history.replaceState(history.state, "", location.pathname)')
    const copy = `details[id="${id}"] a[data-copy-link]`
    await driver.run(
      `() => navigator.clipboard?.writeText && (window.__copied = [], navigator.clipboard.writeText = ((write) => function (text) { window.__copied.push(text); return write.call(this, text) })(navigator.clipboard.writeText))`,
    )
    await driver.click(copy)
    const outcome = await until<string>(
      driver,
      `() => document.getElementById(${JSON.stringify(ANNOUNCER_ELEMENT_ID)})?.textContent?.includes('Link copied') ? 'copied' : location.hash === ${JSON.stringify(`#${id}`)} ? 'followed' : ''`,
      'the copy link neither copied nor led to the answer',
    )
    const address = `${site.origin}/en/support/faq/#${id}`
    if (outcome === 'copied') {
      expect(await driver.run<string[]>('() => window.__copied ?? []'), engine).toEqual([address])
    } else {
      cannot(
        engine,
        'write to the clipboard from a driven click: the copy link led to its answer instead',
      )
    }
    expect(await problems(driver), engine).toEqual([])
  })

  it('signs up for the newsletter with script (same page) and without (a classic post), and confirms from the mail', async () => {
    for (const withScript of [true, false]) {
      await decided(driver)
      if (!withScript)
        await driver.run(`() => { document.cookie = '${NO_SCRIPT_COOKIE}=1; path=/' }`)
      const email = `${engine}.${withScript ? 'script' : 'classic'}.${Date.now()}@example.com`
      await driver.goto(`${site.origin}/en/newsletter/`)
      if (withScript) {
        await started(driver)
        await markDocument(driver)
      }
      await fill(driver, '#newsletter-email', email)
      await clickLabel(driver, 'newsletter-topics-regulation')
      await clickLabel(driver, 'newsletter-consent')
      await driver.click('form[data-form=newsletter] button[type=submit]')
      await until(
        driver,
        '() => location.pathname === "/en/newsletter-success/" && document.readyState === "complete"',
        `${withScript ? 'with' : 'without'} script: no success page`,
      )
      if (withScript) expect(await sameDocument(driver), `${engine}: reloaded`).toBe(true)
      else await driver.run(`() => { document.cookie = '${NO_SCRIPT_COOKIE}=; max-age=0; path=/' }`)
      const link = new URL((await mailTo(email)).match(/https?:\/\/\S+\/confirm\S*/)?.[0] ?? '')
      await driver.goto(`${site.origin}${link.pathname}${link.search}`)
      await driver.click('form button[type=submit]')
      await until(
        driver,
        '() => location.pathname === "/en/newsletter-confirmed/"',
        'the confirmation did not land',
      )
    }
  })

  it('takes the survey by keyboard and mouse, and thanks for it', async () => {
    await decided(driver)
    await driver.goto(`${site.origin}/de/services/splitpay/survey/`)
    await started(driver)
    await clickLabel(driver, 'splitpay-survey-answers-paid-in-instalments-online')
    await clickLabel(driver, 'splitpay-survey-answers-reasons-plannable')
    // Arrow keys choose within a radio group.
    await clickLabel(driver, 'splitpay-survey-answers-clear-total-costs-1')
    await driver.press('ArrowRight')
    expect(
      await driver.run(
        '() => document.querySelector("[name=\'answers.clear-total-costs\']:checked")?.value',
      ),
      engine,
    ).toBe('2')
    await driver.click('form[data-form=splitpay-survey] button[type=submit]')
    await until(driver, '() => location.pathname === "/de/survey-success/"', 'no thanks page')
    expect(await problems(driver), engine).toEqual([])
  })

  it("converts with the card network's rates as the visitor types", async () => {
    await decided(driver)
    await driver.goto(`${site.origin}/de/exchange-rates/mastercard/`)
    await started(driver)
    const amount = await driver.run<string>(
      '() => { const field = [...document.querySelectorAll("input")].find((input) => input.labels?.[0]?.textContent?.includes("Betrag")); field?.setAttribute("data-engine-amount", ""); field?.select(); return !!field }',
    )
    expect(amount, engine).toBe(true)
    await driver.click('[data-engine-amount]')
    await driver.run('() => document.querySelector("[data-engine-amount]").select()')
    await driver.type('250')
    // The currency by keyboard: Tab to the list, its code typed.
    await driver.press('Tab')
    await until(
      driver,
      '() => document.activeElement?.name === "currency"',
      'Tab did not reach the currency',
    )
    await driver.type('CHF')
    expect(await driver.run('() => document.activeElement.value'), engine).toBe('CHF')
    await until(
      driver,
      '() => document.querySelector("[data-converter-result]")?.textContent?.replace(/\\s+/g, " ").includes("250,00 CHF sind 234,32 € zum Mastercard-Kurs von 1,066903")',
      'no conversion of 250 CHF',
    )
    expect(await problems(driver), engine).toEqual([])
  })

  it("keeps the blog's language choice, made by keyboard, for the next visit", async () => {
    await forget(driver)
    await decided(driver)
    await driver.goto(`${site.origin}/blog/`)
    await started(driver)
    await driver.run('() => document.querySelector("input[type=radio][value=all]").focus()')
    await driver.press('ArrowDown')
    await driver.press('ArrowDown')
    const chosen = await driver.run<string>(
      '() => document.querySelector("input[type=radio]:checked").value',
    )
    expect(['en', 'de'], engine).toContain(chosen)
    const teasers = `() => { const langs = [...document.querySelectorAll("main article > ul > li")].map((item) => item.lang); return langs.length > 0 && langs.every((lang) => lang === ${JSON.stringify(chosen)}) }`
    await until(driver, teasers, `the list does not show ${chosen} only`)
    await driver.reload()
    await started(driver)
    await until(
      driver,
      `() => document.querySelector("input[type=radio]:checked")?.value === ${JSON.stringify(chosen)}`,
      'the choice was not kept',
    )
    await until(driver, teasers, `after a reload, the list does not show ${chosen} only`)
    expect(await problems(driver), engine).toEqual([])
  })

  it('registers the service worker, and shows a visited page again when the network is gone', async () => {
    // A browser of its own, as a first visit: in the browser whose workers the other scenarios
    // had unregistered, WebKitGTK's new worker at times stayed installing, awaiting nothing
    // from the site.
    const driver = await launch(engine, { proxy: site.proxy })
    try {
      await decided(driver)
      await driver.goto(`${site.origin}/en/`)
      await started(driver)
      await until(
        driver,
        'async () => !!(await navigator.serviceWorker?.getRegistration())?.active',
        'no service worker became active',
        15_000,
      ).catch(async (error: Error) => {
        // Say where the worker stopped, and which of the site's answers are still awaited.
        const state = await driver.run<string>(
          'async () => { const r = await navigator.serviceWorker?.getRegistration(); return JSON.stringify({ installing: r?.installing?.state, waiting: r?.waiting?.state, active: r?.active?.state }) }',
        )
        throw new Error(
          `${error.message}: ${state}; awaited: ${site.inFlight().join(', ') || 'none'}`,
        )
      })
      await until(
        driver,
        '() => !!navigator.serviceWorker.controller',
        'the worker controls no page',
      )
      // A page visited while the worker is in charge is kept for later.
      await driver.goto(`${site.origin}/en/about/`)
      await started(driver)
      await until(
        driver,
        `async () => { for (const name of await caches.keys()) { if (await (await caches.open(name)).match(location.href)) return true } return false }`,
        'the visited page was not kept',
      )
      const cutBefore = site.cut()
      site.setOffline(true)
      try {
        await driver.reload()
        const heading = await driver.run<string>(
          '() => document.querySelector("h1")?.textContent ?? ""',
        )
        expect(heading, engine).toMatch(/about/i)
        // The browser did ask the network, and was cut off.
        // (The probe is the front's, never the worker's: offline, it does not run.)
        expect(site.cut(), engine).toBeGreaterThan(cutBefore)
      } finally {
        site.setOffline(false)
      }
    } finally {
      await driver.close()
    }
  })

  it('never scrolls sideways at 320 and 1280 pixels', async () => {
    await decided(driver)
    const pages = [
      '/en/',
      '/de/services/cards/',
      '/en/support/faq/',
      '/de/exchange-rates/mastercard/',
      '/en/newsletter/',
    ]
    try {
      for (const width of [320, 1280]) {
        await driver.resize(width, 800)
        await driver.goto(`${site.origin}/en/404/`)
        const inner = await driver.run<number>('() => window.innerWidth')
        const framed = inner !== width
        if (framed)
          cannot(
            engine,
            `make its window ${width} px wide (${inner} px): pages checked in a frame of ${width} px`,
          )
        for (const path of pages) {
          if (framed) {
            await driver.goto(
              `${site.origin}${FRAME_PATH}?width=${width}&src=${encodeURIComponent(path)}`,
            )
            await until(
              driver,
              '() => document.querySelector("iframe").contentDocument?.readyState === "complete" && !!document.querySelector("iframe").contentDocument.querySelector("h1")',
              `${path} not in its frame`,
            )
          } else {
            await driver.goto(`${site.origin}${path}`)
          }
          const overflow = await driver.run<number>(
            `() => { const doc = ${framed ? 'document.querySelector("iframe").contentDocument' : 'document'}; return doc.documentElement.scrollWidth - doc.documentElement.clientWidth }`,
          )
          expect(overflow, `${engine} ${path} at ${width} px`).toBeLessThanOrEqual(0)
        }
      }
    } finally {
      await driver.resize(1280, 900)
    }
  })
})
