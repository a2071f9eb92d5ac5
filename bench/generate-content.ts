/**
 * Generates a content store of `total` pages, half English and half German: every page of
 * the specification plus numbered filler pages, with the shared files a build needs.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { stringify } from 'yaml'
import { locate } from '../src/content/collections'
import { LANGUAGES } from '../src/shared/languages'
import { SPEC_PAGES } from '../src/shared/spec-routes'

const PARAGRAPH =
  'Banking-as-a-service lets a company offer accounts, cards and loans under a licensed bank. This page was generated for the build benchmark; its length resembles a real introduction so that rendering and writing cost what real pages cost.'

function page(title: string, language: string) {
  return {
    title,
    description: `${title}: generated ${language} page for the build benchmark of the static-site engine.`,
    intro: `${PARAGRAPH} ${PARAGRAPH}`,
  }
}

/** The search dialog's words of a generated store (English in both languages). */
const SEARCH = {
  button: 'Search',
  title: 'Search the website',
  label: 'Search for',
  placeholder: 'e.g. card',
  close: 'Close search',
  hint: 'Arrow keys move through the results, Enter opens one, Escape closes the search.',
  loading: 'Loading the search …',
  results: '{count} results',
  oneResult: '1 result',
  noResults: 'No results for “{query}”.',
  showMore: 'Show more results',
  otherLanguage: 'Search the other pages',
  ownLanguage: 'Search these pages',
  otherLanguageResults: 'Results from the other pages',
  error: 'The search could not be loaded.',
  offline: 'You are offline.',
  offlineResults: 'You are offline: results show the pages saved on this device.',
  retry: 'Try again',
}

/** Interface strings of a generated store (English in both languages; only size matters). */
const STRINGS = {
  skipToContent: 'Skip to content',
  primaryNavigation: 'Main navigation',
  menu: 'Menu',
  languageSwitcherLabel: 'Choose language',
  navigatedTo: 'Navigated to',
  footerNavigation: 'Footer navigation',
  home: 'Home',
  breadcrumbs: 'Breadcrumb',
  readMore: 'Read more',
  minutesToRead: '{minutes} min read',
  publishedOn: 'Published on {date}',
  updatedOn: 'Last updated on {date}',
  byAuthor: 'By {author}',
  previousPage: 'Previous page',
  nextPage: 'Next page',
  pageOf: 'Page {page} of {pages}',
  allCategories: 'All topics',
  categories: 'Topics',
  frequentlyAskedQuestions: 'Frequently asked questions',
  copyLink: 'Copy link to this answer',
  linkCopied: 'Link copied',
  download: 'Download',
  applyNow: 'Apply now',
  location: 'Location',
  employmentType: 'Employment type',
  applyBy: 'Apply by {date}',
  postLanguage: 'Article in {language}',
  postLanguages: 'Language of the articles',
  allLanguagesFirst: 'All, {language} first',
  onlyLanguage: '{language} only',
  postsShown: '{count} articles',
  noMorePosts: 'No more articles in {language}.',
  noPostsInLanguage: 'No articles in {language} on this topic yet.',
  showAllLanguages: 'Show articles in every language',
  whatItIs: 'What it is',
  whoItIsFor: 'Who it is for',
  howIntegrationWorks: 'How integration works',
  regulatoryNotes: 'Regulatory notes',
  startingPoint: 'Starting point',
  solution: 'Solution',
  servicesUsed: 'Services used',
  everydayHelp: 'Everyday help',
  complaints: 'Complaints',
  contactTheBank: 'Contacting the bank',
  documents: 'Documents',
  findings: 'Findings',
  methodology: 'Methodology',
  company: 'Company information',
  managementBoard: 'Management board',
  supervisoryBoardChair: 'Chair of the supervisory board',
  commercialRegister: 'Commercial register',
  vatId: 'VAT ID',
  supervisoryAuthorities: 'Supervisory authorities',
  editorialResponsible: 'Responsible for editorial content',
  contact: 'Contact',
}

/** Navigation, footer and strings of a generated store. */
export function sampleLayout(language: string) {
  const link = (label: string, path: string) => ({ label, href: `/${language}${path}` })
  return {
    navigation: [
      link('Services', '/services/'),
      link('Support', '/support/'),
      link('About', '/about/'),
    ],
    footer: [
      {
        title: 'Legal',
        links: [link('Imprint', '/imprint/'), link('Privacy', '/privacy-policy/')],
      },
    ],
    cookieSettings: link('Cookie settings', '/privacy-policy/'),
    search: SEARCH,
    strings: { ...STRINGS, languageName: language === 'de' ? 'Deutsch' : 'English' },
  }
}

/** Site settings of a generated store: every field, all of them invented. */
export const SAMPLE_SETTINGS = {
  brandName: 'Benchmark Bank',
  shortName: 'Bench',
  legalEntity: 'Benchmark Bank AG',
  address: { street: 'Musterstraße 1', postalCode: '10115', city: 'Berlin', country: 'Germany' },
  email: 'info@bank.example',
  phone: '+49 30 1234567',
  pressEmail: 'press@bank.example',
  complaintsEmail: 'complaints@bank.example',
  register: { court: 'Amtsgericht Charlottenburg', number: 'HRB 000000 B' },
  vatId: 'DE000000000',
  managementBoard: ['A. Example'],
  supervisoryBoardChair: 'B. Example',
  editorialResponsible: 'C. Example, Musterstraße 1, 10115 Berlin',
  supervisors: [
    {
      name: 'BaFin',
      address: 'Graurheindorfer Straße 108, 53117 Bonn',
      url: 'https://www.bafin.de/',
    },
  ],
}

const base = (title: string, language: string) => page(title, language)
const markdown = `## ${'Details'}\n\n${PARAGRAPH}\n\n- ${'One point'}\n- ${'Another point'}\n`

/**
 * A valid entry of a content type, with text of realistic length: what a page of that type
 * costs to validate, render and write. `name` is the entry's path below the language folder.
 */
export function sampleEntry(
  collection: string,
  name: string,
  language: string,
): Record<string, unknown> {
  const title = `Page ${name}`
  switch (collection) {
    case 'service':
      return {
        ...base(title, language),
        summary: `${title} in one line.`,
        icon: 'card',
        whatItIs: markdown,
        audience: ['Fintechs', 'Platforms'],
        integration: [
          { title: 'Contract', text: PARAGRAPH },
          { title: 'Launch', text: PARAGRAPH },
        ],
        regulatory: markdown,
        faq: [{ question: 'A question?', answer: PARAGRAPH }],
      }
    case 'caseStudy':
      return {
        ...base(title, language),
        partner: 'Partner',
        summary: 'A partner.',
        services: ['cards'],
        challenge: markdown,
        solution: markdown,
      }
    case 'supportClient':
      return {
        ...base(title, language),
        partner: 'Partner',
        category: 'general',
        products: 'Account and card.',
        everydayHelp: markdown,
        complaints: markdown,
        contactBank: markdown,
      }
    case 'customerInformation':
      return {
        ...base(title, language),
        country: 'Germany',
        iban: 'German IBAN',
        contractLanguage: 'en',
        sections: [{ heading: 'About these documents', body: markdown }],
        documents: [
          {
            id: 'depositor-information-sheet',
            title: 'Depositor information sheet',
            summary: 'The sheet.',
            body: markdown,
          },
        ],
      }
    case 'legalPage':
      return { ...base(title, language), updated: '2026-11-16', body: markdown }
    case 'study':
      return {
        ...base(title, language),
        published: '2026-10-20',
        findings: [1, 2, 3].map((n) => ({ title: `Finding ${n}`, text: PARAGRAPH })),
        methodology: markdown,
        download: {
          label: 'Download the study',
          href: `/documents/studies/${name.split('/').at(-1)}-${language}.pdf`,
        },
      }
    default:
      return base(title, language)
  }
}

/** Writes the store and returns the number of routed pages it holds. */
export async function generateContent(dir: string, total: number): Promise<number> {
  await rm(dir, { recursive: true, force: true })
  const files: [string, unknown][] = [
    ['site.yaml', SAMPLE_SETTINGS],
    ['blog/archive.yaml', { en: page('Blog', 'en'), de: page('Blog', 'de') }],
  ]
  const perLanguage = Math.max(Math.floor(total / LANGUAGES.length), SPEC_PAGES.length)
  for (const language of LANGUAGES) {
    files.push([`${language}/layout.yaml`, sampleLayout(language)])
    files.push([`${language}/pages/404.yaml`, page('Page not found', language)])
    files.push([
      `${language}/support-categories/general.yaml`,
      { ...page('Support', language), order: 1 },
    ])
    for (const path of SPEC_PAGES) {
      const name = path === '/' ? 'index' : path.slice(1, -1)
      const file = `${language}/pages/${name}.yaml`
      files.push([file, sampleEntry(locate(file)?.collection.name ?? 'page', name, language)])
    }
    for (let index = SPEC_PAGES.length; index < perLanguage; index += 1) {
      const group = Math.floor(index / 100)
      files.push([
        `${language}/pages/generated/${group}/page-${index}.yaml`,
        page(`Generated page ${index}`, language),
      ])
    }
  }
  const dirs = new Set(files.map(([file]) => dirname(join(dir, file))))
  await Promise.all([...dirs].map((d) => mkdir(d, { recursive: true })))
  for (let i = 0; i < files.length; i += 256) {
    await Promise.all(
      files.slice(i, i + 256).map(([file, data]) => writeFile(join(dir, file), stringify(data))),
    )
  }
  return perLanguage * LANGUAGES.length
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir = 'bench/out/content', total = '120'] = process.argv.slice(2)
  generateContent(dir, Number(total)).then((pages) => console.log(`${pages} pages in ${dir}`))
}
