/** Where browser tests find Chromium and the site. Debian's package unless CHROMIUM_PATH says otherwise. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]
export const TEST_PORT = Number(process.env.TEST_PORT ?? 4173)
export const BASE_URL = `http://localhost:${TEST_PORT}`
/** The forms service's data folder while the browser tests run (removed with the run's cache). */
export const E2E_DATA_DIR = '.cache/e2e-data'
