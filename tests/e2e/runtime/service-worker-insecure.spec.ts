import { expect, test } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH, TEST_PORT } from '../support/env'

// `bank.test` resolves to this machine: a plain-http origin that is not localhost.
test.use({
  serviceWorkers: 'allow',
  launchOptions: {
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP bank.test 127.0.0.1'],
  },
})

test('the service worker does not register over plain http and the console says why', async ({
  page,
}) => {
  const messages: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') messages.push(message.text())
  })
  await page.goto(`http://bank.test:${TEST_PORT}/en/`)
  await expect
    .poll(() => messages)
    .toContain('Service workers can only be used over HTTPS, or on localhost for development')
  const registrations = await page.evaluate(
    async () => (await navigator.serviceWorker?.getRegistrations())?.length ?? 0,
  )
  expect(registrations).toBe(0)
})
