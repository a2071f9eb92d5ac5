/**
 * The specified pages (docs/routes.md, "The pages"), without their language prefix. Each
 * exists under `/en/` and `/de/`; the content store must hold both languages of every one.
 */

/** The customer-information detail pages that exist (docs/routes.md, "Customer information"). */
export const CUSTOMER_INFORMATION = [
  { country: 'france', iban: 'de-iban', languages: ['english'] },
  { country: 'france', iban: 'fr-iban', languages: ['english', 'french'] },
  { country: 'germany', iban: 'de-iban', languages: ['english', 'german'] },
  { country: 'italy', iban: 'de-iban', languages: ['english', 'italian'] },
  { country: 'italy', iban: 'it-iban', languages: ['english', 'italian'] },
  { country: 'spain', iban: 'de-iban', languages: ['spanish'] },
] as const

export const SERVICES = [
  'bankident',
  'cards',
  'consumer-lending',
  'digital-banking',
  'fronting',
  'kyc-platform',
  'pooling-account',
  'settlement-account',
  'splitpay',
] as const

export const SUPPORT_PAGES = [
  'bison',
  'bsdex',
  'coinbase',
  'faq',
  'insha',
  'instant-consumer-lending',
  'kontist',
  'nuri',
  'penta',
  'samsung-pay',
  'smava',
  'tomorrow',
  'traderepublic',
  'vivid-money',
] as const

export const CASE_STUDIES = ['nuri', 'penta', 'tomorrow'] as const

const PAGES = [
  '',
  'about',
  'careers',
  'case-studies',
  ...CASE_STUDIES.map((name) => `case-studies/${name}`),
  'consumer-credit-faqs',
  'customer-information',
  'exchange-rates',
  'exchange-rates/mastercard',
  'imprint',
  'informaciones-clientes',
  'informations-clients',
  'informazioni-clienti',
  'newsletter',
  'newsletter-success',
  'press',
  'privacy-policy',
  'productupdates-success',
  'survey',
  'survey-success',
  'terms-of-use',
  'studies/embedded-finance',
  'services',
  ...SERVICES.map((name) => `services/${name}`),
  'services/splitpay/survey',
  'support',
  ...SUPPORT_PAGES.map((name) => `support/${name}`),
  ...CUSTOMER_INFORMATION.flatMap(({ country, iban, languages }) =>
    languages.map((language) => `customer-information/${country}/${iban}/${language}`),
  ),
]

/** Every specified page (docs/routes.md) as an original path: `/`, `/about/`, `/services/…/`. */
export const SPEC_PAGES: readonly string[] = PAGES.map((page) => (page === '' ? '/' : `/${page}/`))
