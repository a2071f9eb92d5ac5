import { defineConfig } from '@playwright/test'
import {
  BASE_URL,
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  E2E_DATA_DIR,
  E2E_TRACKING,
  TEST_PORT,
} from './tests/e2e/support/env'

const DECIDED = ['localhost', '127.0.0.1'].flatMap((domain) =>
  [
    ['cookieconsent_analytics', 'deny'],
    ['cookieconsent_conversion', 'deny'],
    ['cookieconsent_revision', '1'],
  ].map(([name = '', value = '']) => ({
    name,
    value,
    domain,
    path: '/',
    expires: -1,
    httpOnly: false,
    secure: false,
    sameSite: 'Lax' as const,
  })),
)

/** Browser tests run against the built site served by `npm start`, never a dev server. */
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? 'list' : 'line',
  use: {
    baseURL: BASE_URL,
    // A returning visitor who has answered the cookie banner (rejected all): the banner stays
    // away from the tests of other things; tests/e2e/runtime/consent.spec.ts starts without it.
    storageState: { cookies: DECIDED, origins: [] },
    serviceWorkers: 'block',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  // The editors' publishing walk is one serial group of about four minutes: it goes first, so
  // that the other worker takes every other test meanwhile instead of idling at the end.
  projects: [
    { name: 'publishing', testMatch: /publishing(-oidc)?\.spec\.ts$/ },
    { name: 'site', testIgnore: /publishing(-oidc)?\.spec\.ts$/ },
  ],
  webServer: {
    command: 'node scripts/run.mjs start',
    url: `${BASE_URL}/`,
    // The forms service keeps its database and outbox out of the project's data/ folder.
    env: {
      PORT: String(TEST_PORT),
      LOG_LEVEL: 'warn',
      DATA_DIR: E2E_DATA_DIR,
      // The editors' service has tests of its own (publishing.spec.ts starts it).
      PUBLISHING: 'off',
      // The accessibility walk rejects in the banner on every page, and each rejection is
      // recorded (POST /api/consent, limited per address and minute): ten times the usual
      // limit lets the walk record them all. The limits are tested in the forms service's tests.
      FORMS_RATE_LIMIT: '100',
      ...E2E_TRACKING,
    },
    reuseExistingServer: false,
    timeout: 300_000,
    stdout: 'pipe',
  },
})
