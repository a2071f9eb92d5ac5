/**
 * The small driver the cross-engine scenarios are written against, and its three engines:
 * Chromium and Firefox through puppeteer-core (CDP and WebDriver BiDi), WebKitGTK through its
 * WebDriver (WebKitWebDriver and MiniBrowser, under Xvfb) with selenium-webdriver. Only what
 * every engine can do: scripts in the page, clicks and keys, history, the window's size.
 *
 * Page errors and console errors are recorded by a script of the tests' own that the site's
 * proxy puts first in every page (`probe.js`), the same way in every engine: WebKit's driver
 * reports no console messages.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/env'
import { freePort } from '../support/free-port'
import { removeFolder, temporaryFolder } from '../support/temporary-folder'

export type Engine = 'chromium' | 'firefox' | 'webkit'
export const ENGINES: readonly Engine[] = ['chromium', 'firefox', 'webkit']

export interface Driver {
  readonly engine: Engine
  /** Loads `url` and waits for its load event. */
  goto(url: string): Promise<void>
  /** Runs `script` (a function's source, called with `args`) in the page; returns its result. */
  run<T>(script: string, ...args: unknown[]): Promise<T>
  /** Clicks the first element matching `selector`, scrolled into view first. */
  click(selector: string): Promise<void>
  /** Moves the pointer over the first element matching `selector`. */
  hover(selector: string): Promise<void>
  /** Types `text` into the element that has focus. */
  type(text: string): Promise<void>
  /** Presses one key: `Enter`, `Tab`, `Escape`, `ArrowDown`, `Space`, `/`. */
  press(key: KeyName): Promise<void>
  back(): Promise<void>
  forward(): Promise<void>
  /**
   * Reloads as the visitor's reload button does, by the page's own `location.reload()`: the
   * drivers' reload commands bypass the service worker in Firefox and WebKitGTK.
   */
  reload(): Promise<void>
  /** The window's inner size (WebKitGTK's window is at least 447 px wide; see docs/testing.md). */
  resize(width: number, height: number): Promise<void>
  /** Browses without a network (WebKitGTK's driver cannot; `undefined` there). */
  setOffline?(offline: boolean): Promise<void>
  close(): Promise<void>
}

export type KeyName = 'Enter' | 'Tab' | 'Escape' | 'ArrowDown' | 'ArrowRight' | 'Space' | 'Slash'

export interface LaunchOptions {
  /** An HTTP proxy every request to another host goes through (it records them). */
  proxy?: string
}

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr'
export const WEBKIT_DRIVER_PATH = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver'
export const MINIBROWSER_PATH =
  process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser'

/** Why an engine cannot run here, or undefined when it can. */
export function missing(engine: Engine): string | undefined {
  const need =
    engine === 'chromium'
      ? [CHROMIUM_PATH]
      : engine === 'firefox'
        ? [FIREFOX_PATH]
        : [WEBKIT_DRIVER_PATH, MINIBROWSER_PATH]
  const absent = need.filter((path) => !existsSync(path))
  return absent.length ? `not installed: ${absent.join(', ')}` : undefined
}

/** What each engine's launcher gives; `launch` adds what is the same in every engine. */
type EngineDriver = Omit<Driver, 'reload'>

export async function launch(engine: Engine, options: LaunchOptions = {}): Promise<Driver> {
  const driver =
    engine === 'webkit' ? await launchWebKit(options) : await launchPuppeteer(engine, options)
  return { ...driver, reload: () => reloadByPage(driver) }
}

/** `location.reload()` from the page, then waits for the new document to have loaded. */
async function reloadByPage(driver: EngineDriver): Promise<void> {
  await driver.run('() => { window.__reloading = true; setTimeout(() => location.reload(), 0) }')
  const end = Date.now() + 15_000
  for (;;) {
    await new Promise((done) => setTimeout(done, 50))
    // While the document changes, a script may find no page to run in.
    const loaded = await driver
      .run<boolean>('() => !window.__reloading && document.readyState === "complete"')
      .catch(() => false)
    if (loaded) return
    if (Date.now() > end) throw new Error(`${driver.engine}: the page did not reload`)
  }
}

const PUPPETEER_KEYS: Record<KeyName, string> = {
  Enter: 'Enter',
  Tab: 'Tab',
  Escape: 'Escape',
  ArrowDown: 'ArrowDown',
  ArrowRight: 'ArrowRight',
  Space: 'Space',
  Slash: 'Slash',
}

async function launchPuppeteer(
  engine: 'chromium' | 'firefox',
  options: LaunchOptions,
): Promise<EngineDriver> {
  const { default: puppeteer } = await import('puppeteer-core')
  const proxy = options.proxy ? new URL(options.proxy) : undefined
  const browser =
    engine === 'chromium'
      ? await puppeteer.launch({
          browser: 'chrome',
          executablePath: CHROMIUM_PATH,
          headless: true,
          args: [
            ...CHROMIUM_ARGS,
            // Chromium 150 connects to www.google.com by itself: it preconnects to its search
            // engine and asks whether its "AI mode" may be offered (/async/folae), at start and
            // on navigation. Its own requests, to a host the site's trackers use too: turned off
            // rather than let through (found with --log-net-log). Puppeteer merges this list
            // with its own.
            '--disable-features=SearchEnginePreconnector,SearchEnginePreconnect2,PreconnectToSearch,AimEligibilityService,AimServerEligibilityEnabled,AimServerRequestOnStartupEnabled,AimEnabled,AiModeOmniboxEntryPoint',
            ...(proxy ? [`--proxy-server=${proxy.host}`, '--proxy-bypass-list=<-loopback>'] : []),
          ],
        })
      : await puppeteer.launch({
          browser: 'firefox',
          protocol: 'webDriverBiDi',
          executablePath: FIREFOX_PATH,
          headless: true,
          extraPrefsFirefox: {
            // No update checks, telemetry or other calls of Firefox's own.
            'network.captive-portal-service.enabled': false,
            'network.connectivity-service.enabled': false,
            'browser.safebrowsing.update.enabled': false,
            ...(proxy
              ? {
                  'network.proxy.type': 1,
                  'network.proxy.http': proxy.hostname,
                  'network.proxy.http_port': Number(proxy.port),
                  'network.proxy.ssl': proxy.hostname,
                  'network.proxy.ssl_port': Number(proxy.port),
                  'network.proxy.no_proxies_on': 'localhost, 127.0.0.1',
                }
              : {}),
          },
        })
  const page = await browser.newPage()
  const handle = (selector: string) =>
    page.waitForSelector(selector, { timeout: 5000 }).then((found) => {
      if (!found) throw new Error(`${engine}: nothing matches ${selector}`)
      return found
    })
  return {
    engine,
    async goto(url) {
      await page.goto(url, { waitUntil: 'load' })
      // Firefox's goto has been seen to return while the previous document still answered.
      const wanted = new URL(url).href
      const end = Date.now() + 10_000
      while (
        !(await page
          .evaluate((href) => location.href === href && document.readyState === 'complete', wanted)
          .catch(() => false))
      ) {
        if (Date.now() > end) throw new Error(`${engine}: ${url} did not load`)
        await new Promise((done) => setTimeout(done, 50))
      }
    },
    run: <T>(script: string, ...args: unknown[]) =>
      page.evaluate(
        (source: string, values: unknown[]) => {
          // The scenarios' own scripts, by indirect eval: in the page's global scope.
          // biome-ignore lint/security/noGlobalEval: the scenarios' own scripts, in the page
          const globalEval = eval
          return globalEval(`(${source})`)(...values)
        },
        script,
        args,
      ) as Promise<T>,
    async click(selector) {
      const element = await handle(selector)
      await element.scrollIntoView()
      await element.click()
    },
    async hover(selector) {
      const element = await handle(selector)
      await element.scrollIntoView()
      await element.hover()
    },
    async type(text) {
      await page.keyboard.type(text)
    },
    async press(key) {
      await page.keyboard.press(PUPPETEER_KEYS[key] as Parameters<typeof page.keyboard.press>[0])
    },
    async back() {
      await page.goBack()
    },
    async forward() {
      await page.goForward()
    },
    async resize(width, height) {
      await page.setViewport({ width, height })
    },
    ...(engine === 'chromium'
      ? {
          async setOffline(offline: boolean) {
            await page.setOfflineMode(offline)
          },
        }
      : {}),
    async close() {
      await browser.close()
    },
  }
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const { connect } = await import('node:net')
  const end = Date.now() + timeoutMs
  for (;;) {
    const open = await new Promise<boolean>((done) => {
      const socket = connect(port, '127.0.0.1')
      socket.once('connect', () => {
        socket.destroy()
        done(true)
      })
      socket.once('error', () => done(false))
    })
    if (open) return
    if (Date.now() > end) throw new Error(`nothing listens on ${port} after ${timeoutMs} ms`)
    await new Promise((done) => setTimeout(done, 50))
  }
}

/** A virtual display for MiniBrowser (Xvfb), stopped by `stop`; `DISPLAY` when one is set. */
async function virtualDisplay(): Promise<{ display: string; stop: () => void }> {
  if (process.env.DISPLAY) return { display: process.env.DISPLAY, stop: () => {} }
  // -displayfd: Xvfb picks a free display itself and writes its number.
  const xvfb: ChildProcess = spawn(
    'Xvfb',
    ['-displayfd', '3', '-screen', '0', '1920x1080x24', '-nolisten', 'tcp'],
    { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] },
  )
  const stop = () => {
    xvfb.kill()
  }
  // A test process killed without its afterAll still takes its display with it.
  process.once('exit', stop)
  const number = await new Promise<string>((done, fail) => {
    let text = ''
    const timer = setTimeout(() => fail(new Error('Xvfb did not start within 5 s')), 5000)
    xvfb.stdio[3]?.on('data', (chunk: Buffer) => {
      text += chunk.toString()
      if (text.includes('\n')) {
        clearTimeout(timer)
        done(text.trim())
      }
    })
    xvfb.once('exit', (code) => fail(new Error(`Xvfb exited (${code})`)))
  })
  return { display: `:${number}`, stop }
}

/**
 * Ends a process started with `detached: true` and everything it started: SIGTERM to its group,
 * then waits until no process of the group is left (SIGKILL after 5 s).
 */
async function endProcessGroup(child: ChildProcess): Promise<void> {
  const group = child.pid
  if (group === undefined) return
  const signal = (name: NodeJS.Signals | 0) => {
    try {
      process.kill(-group, name)
      return true
    } catch {
      return false // ESRCH: no process of the group is left
    }
  }
  if (!signal('SIGTERM')) return
  const end = Date.now() + 5000
  while (signal(0)) {
    if (Date.now() > end) {
      signal('SIGKILL')
      break
    }
    await new Promise((done) => setTimeout(done, 25))
  }
}

const WEBDRIVER_KEYS: Record<KeyName, string> = {
  Enter: '\uE007',
  Tab: '\uE004',
  Escape: '\uE00C',
  ArrowDown: '\uE015',
  ArrowRight: '\uE014',
  Space: ' ',
  Slash: '/',
}

async function launchWebKit(options: LaunchOptions): Promise<EngineDriver> {
  const { Builder, By, Capabilities } = await import('selenium-webdriver')
  const port = await freePort()
  const home = await temporaryFolder('webkit-')
  const screen = await virtualDisplay()
  // A home of its own, its caches and data in it: nothing is shared between runs. A process group
  // of its own: MiniBrowser's web processes outlive the session's end by a moment, still writing
  // their shader cache into `home` (ENOTEMPTY in CI), so closing waits until the group is gone.
  const driverProcess = spawn(WEBKIT_DRIVER_PATH, [`--port=${port}`], {
    stdio: 'ignore',
    detached: true,
    env: {
      ...process.env,
      DISPLAY: screen.display,
      HOME: home,
      XDG_CACHE_HOME: join(home, 'cache'),
      XDG_DATA_HOME: join(home, 'data'),
      XDG_CONFIG_HOME: join(home, 'config'),
    },
  })
  // A test process killed without its afterAll still takes the browser with it.
  const killGroup = () => {
    try {
      if (driverProcess.pid !== undefined) process.kill(-driverProcess.pid, 'SIGKILL')
    } catch {}
  }
  process.once('exit', killGroup)
  await waitForPort(port, 10_000)
  const proxy = options.proxy ? new URL(options.proxy) : undefined
  // The proxy by MiniBrowser's own options (the driver's proxy capability was not applied).
  const capabilities = new Capabilities({
    browserName: 'MiniBrowser',
    'webkitgtk:browserOptions': {
      binary: MINIBROWSER_PATH,
      args: [
        '--automation',
        ...(proxy ? [`--proxy=${proxy.origin}`, '--ignore-host=localhost,127.0.0.1'] : []),
      ],
    },
  })
  const driver = await new Builder()
    .usingServer(`http://127.0.0.1:${port}`)
    .withCapabilities(capabilities)
    .build()
  const element = async (selector: string) => {
    const end = Date.now() + 5000
    for (;;) {
      const found = await driver.findElements(By.css(selector))
      if (found[0]) return found[0]
      if (Date.now() > end) throw new Error(`webkit: nothing matches ${selector}`)
      await new Promise((done) => setTimeout(done, 50))
    }
  }
  const waitForLoad = async () => {
    const end = Date.now() + 15_000
    while ((await driver.executeScript('return document.readyState')) !== 'complete') {
      if (Date.now() > end) throw new Error('webkit: the page did not finish loading')
      await new Promise((done) => setTimeout(done, 50))
    }
  }
  return {
    engine: 'webkit',
    async goto(url) {
      await driver.get(url)
      await waitForLoad()
    },
    run: <T>(script: string, ...args: unknown[]) =>
      driver.executeScript(
        `return Promise.resolve((${script}).apply(null, arguments))`,
        ...args,
      ) as Promise<T>,
    async click(selector) {
      const found = await element(selector)
      await driver.executeScript('arguments[0].scrollIntoView({ block: "center" })', found)
      await found.click()
    },
    async hover(selector) {
      const found = await element(selector)
      await driver.executeScript('arguments[0].scrollIntoView({ block: "center" })', found)
      await driver.actions().move({ origin: found }).perform()
    },
    async type(text) {
      await driver.actions().sendKeys(text).perform()
    },
    async press(key) {
      await driver.actions().sendKeys(WEBDRIVER_KEYS[key]).perform()
    },
    async back() {
      await driver.navigate().back()
    },
    async forward() {
      await driver.navigate().forward()
    },
    async resize(width, height) {
      // The outer window around an inner size: the difference is the browser's own chrome.
      const inner = await driver.executeScript<{ w: number; h: number }>(
        'return { w: window.innerWidth, h: window.innerHeight }',
      )
      const outer = await driver.manage().window().getRect()
      await driver
        .manage()
        .window()
        .setRect({ width: width + outer.width - inner.w, height: height + outer.height - inner.h })
    },
    async close() {
      await driver.quit().catch(() => {})
      await endProcessGroup(driverProcess)
      process.off('exit', killGroup)
      screen.stop()
      await removeFolder(home)
    },
  }
}
