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

/**
 * The trackers' identifiers the browser tests build with, so that consent has something to
 * hold back: every request to their hosts is intercepted and answered locally.
 */
export const E2E_TRACKING = {
  GTM_ID: 'GTM-E2ETEST',
  GA_MEASUREMENT_ID: 'G-E2ETEST01',
  ADS_IDS: 'AW-1000000001,AW-1000000002',
  LINKEDIN_PARTNER_ID: '424242',
  TWITTER_PIXEL_ID: 'o1e2e',
}
