/**
 * The exchange-rate pages in the browser: the ECB table sorted by keyboard and announced, its
 * charts in the built HTML (no chart script), the card network's converter by keyboard with
 * its result read out, the rates by day following the currency, and axe on both pages. How the
 * rates by day load (on demand, prefetched, offline, failing) is in rates-history.spec.ts.
 */
import { expect, test } from '@playwright/test'
import { axeViolations } from '../support/axe'
import { openPage } from '../support/helpers'

test('the ECB page: the day and the source stated, sortable by keyboard, announced', async ({
  page,
}) => {
  await openPage(page, '/en/exchange-rates/')
  await expect(page.getByText('Rates of 28 January 2020.')).toBeVisible()
  await expect(
    page.getByRole('link', { name: "The ECB's page on the euro reference rates" }),
  ).toHaveAttribute('href', /^https:\/\/www\.ecb\.europa\.eu\//)
  await expect(
    page.getByText('for information purposes only', { exact: false }).last(),
  ).toBeVisible()
  const table = page.getByRole('table', { name: /ECB euro reference rates of 28 January 2020/ })
  const rows = table.locator('tbody tr')
  await expect(rows).toHaveCount(32)
  const firstCode = async () => (await rows.first().locator('th').textContent()) ?? ''
  expect(await firstCode()).toMatch(/^AUD/)
  const currency = table.getByRole('columnheader', { name: /Currency/ })
  await expect(currency).toHaveAttribute('aria-sort', 'ascending')

  const rateButton = table.getByRole('button', { name: /Per 1 euro/ })
  await rateButton.focus()
  await page.keyboard.press('Enter')
  const rate = table.getByRole('columnheader', { name: /Per 1 euro/ })
  await expect(rate).toHaveAttribute('aria-sort', 'ascending')
  await expect(currency).not.toHaveAttribute('aria-sort', /.+/)
  expect(await firstCode()).toMatch(/^GBP/)
  await expect(page.getByRole('status').filter({ hasText: 'Sorted by' })).toHaveText(
    'Sorted by Per 1 euro, ascending.',
  )
  await page.keyboard.press('Space')
  await expect(rate).toHaveAttribute('aria-sort', 'descending')
  expect(await firstCode()).toMatch(/^IDR/)
  await expect(page.getByRole('status').filter({ hasText: 'Sorted by' })).toHaveText(
    'Sorted by Per 1 euro, descending.',
  )
  // The change over the days: USD went from 1.1162 to 1.1005.
  const usd = rows.filter({ hasText: 'USD' })
  await expect(usd).toContainText('1.1005')
  await expect(usd).toContainText('-1.41%')
  // Its lowest and highest of the 28 days: 1.1005 (28 January), 1.1234 (31 December).
  await expect(usd.getByRole('img')).toHaveAccessibleName(
    'US Dollar: from 1.1162 on 17 December 2019 to 1.1005 on 28 January 2020; lowest 1.1005, highest 1.1234.',
  )
  expect(await axeViolations(page)).toEqual([])
})

test('the charts are drawn at build time: in the HTML before any script runs', async ({
  request,
}) => {
  const html = await (await request.get('/de/exchange-rates/')).text()
  expect(html.match(/<svg[^>]*viewBox="0 0 100 24"/g)?.length).toBe(32)
  expect(html).toContain('<path d="M0 ')
  expect(html).toContain('Kurse vom 28. Januar 2020.')
  expect(html).toContain('0,84603')
})

test('the Mastercard page: rates with the mark-up, the converter by keyboard, read out', async ({
  page,
}) => {
  await openPage(page, '/de/exchange-rates/mastercard/')
  const table = page.getByRole('table', { name: /Mastercard-Kurse und unser Aufschlag/ })
  const chf = table.locator('tbody tr').filter({ hasText: 'CHF' })
  await expect(chf).toContainText('1,066903')
  await expect(chf).toContainText('1,0703')
  await expect(chf).toContainText('0,32 %')
  await expect(chf).toContainText('28. Januar 2020')

  // Amount, currency and day by keyboard alone.
  const amount = page.getByRole('textbox', { name: 'Betrag in Fremdwährung' })
  await amount.focus()
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.type('250')
  await page.keyboard.press('Tab')
  await expect(page.getByRole('combobox', { name: 'Währung' })).toBeFocused()
  await page.keyboard.type('CHF')
  await expect(page.getByRole('combobox', { name: 'Währung' })).toHaveValue('CHF')
  const result = page.locator('[data-converter-result]')
  await expect(result).toContainText(
    '250,00 CHF sind 234,32 € zum Mastercard-Kurs von 1,066903 (28. Januar 2020).',
  )
  await expect(result).toContainText(
    'Zum EZB-Referenzkurs von 1,0703 (28. Januar 2020) wären es 233,58 €.',
  )
  await expect(result).toContainText('Aufschlag auf den EZB-Referenzkurs: 0,32 %.')
  await page.keyboard.press('Tab')
  const day = page.getByRole('combobox', { name: 'Datum' })
  await expect(day).toBeFocused()
  await day.selectOption('2019-12-27')
  await expect(result).toContainText('230,23 €')
  await expect(result).toContainText('229,57 €')
  await expect(result).toContainText('0,29 %')
  // Read out once typing pauses.
  await expect(page.locator('[data-converter-announcement]')).toContainText('230,23 €')
  await expect(page.locator('[data-converter-announcement]')).toHaveAttribute('role', 'status')

  // The rates by day follow the currency, behind their button.
  await page
    .getByRole('button', { name: 'Kurse von Schweizer Franken nach Tagen anzeigen' })
    .click()
  const history = page.getByRole('table', { name: /Schweizer Franken: Mastercard-Kurs/ })
  await expect(history.locator('tbody tr')).toHaveCount(28)
  await expect(history.locator('tbody tr').filter({ hasText: '27. Dezember 2019' })).toContainText(
    '1,085885',
  )

  // An amount that is no number says so, beside the field.
  await amount.fill('zwölf')
  await expect(amount).toHaveAttribute('aria-invalid', 'true')
  await expect(
    page.getByText('Geben Sie den Betrag als Zahl ein, zum Beispiel 100,00.'),
  ).toBeVisible()
  await expect(result).toBeEmpty()
  expect(await axeViolations(page)).toEqual([])
})
