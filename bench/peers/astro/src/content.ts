/**
 * The content store the project's own build reads (`CONTENT_DIR`, as `bench/generate-content.ts`
 * writes it), read at build time: the site's settings, each language's layout, and one page per
 * file of `{language}/pages/` and `{language}/support-categories/`. Its YAML is read with
 * js-yaml and its Markdown rendered with markdown-it, as the project's build does.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { load } from 'js-yaml'
import MarkdownIt from 'markdown-it'

export const LANGUAGES = ['en', 'de'] as const
export type Language = (typeof LANGUAGES)[number]

export interface Link {
  label: string
  href: string
}

export interface Layout {
  navigation: Link[]
  footer: { title: string; links: Link[] }[]
  cookieSettings: Link
  strings: Record<string, string>
}

export interface Settings {
  brandName: string
  legalEntity: string
  address: { street: string; postalCode: string; city: string; country: string }
  email: string
  phone: string
  register: { court: string; number: string }
  vatId: string
  managementBoard: string[]
  supervisoryBoardChair: string
  supervisors: { name: string; address: string; url: string }[]
}

/** The page's type, as the project's content model names it from the file's place. */
export type PageType =
  | 'page'
  | 'service'
  | 'caseStudy'
  | 'supportClient'
  | 'customerInformation'
  | 'legalPage'
  | 'study'
  | 'supportCategory'

export interface Page {
  language: Language
  /** The file's path below its folder, without `.yaml`: `services/cards`, `index`. */
  name: string
  type: PageType
  /** The address: `/en/services/cards/`. */
  path: string
  /** The route's parameter: `services/cards`, undefined for the home page. */
  slug: string | undefined
  // The fields differ by type; the templates read the ones theirs has.
  data: Record<string, any>
}

/** Which file of `pages/` holds which type (the project's `src/content/collections.ts`). */
const PAGE_TYPES: [RegExp, PageType][] = [
  [/^services\/[a-z0-9-]+$/, 'service'],
  [/^case-studies\/[a-z0-9-]+$/, 'caseStudy'],
  [/^support\/(?!faq$|instant-consumer-lending$)[a-z0-9-]+$/, 'supportClient'],
  [/^customer-information\/[a-z-]+\/[a-z-]+\/[a-z-]+$/, 'customerInformation'],
  [/^(imprint|privacy-policy|terms-of-use|accessibility)$/, 'legalPage'],
  [/^studies\/[a-z0-9-]+$/, 'study'],
]

function storeDir(): string {
  const dir = process.env.CONTENT_DIR
  if (!dir) throw new Error('CONTENT_DIR: set it to the content store (bench/generate-content.ts)')
  return resolve(dir)
}

const readYaml = (file: string) => load(readFileSync(file, 'utf8')) as Record<string, any>

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.yaml'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()
}

function readStore() {
  const dir = storeDir()
  const settings = readYaml(join(dir, 'site.yaml')) as Settings
  const blog = readYaml(join(dir, 'blog', 'archive.yaml')) as Record<Language, Record<string, any>>
  const layouts = {} as Record<Language, Layout>
  const pages: Page[] = []
  for (const language of LANGUAGES) {
    layouts[language] = readYaml(join(dir, language, 'layout.yaml')) as Layout
    const folder = join(dir, language, 'pages')
    for (const file of yamlFiles(folder)) {
      const name = relative(folder, file).slice(0, -'.yaml'.length)
      const path = name === 'index' ? '' : name
      const type = PAGE_TYPES.find(([pattern]) => pattern.test(name))?.[1] ?? 'page'
      pages.push(page(language, name, type, path, readYaml(file)))
    }
    const categories = join(dir, language, 'support-categories')
    for (const file of yamlFiles(categories)) {
      const name = relative(categories, file).slice(0, -'.yaml'.length)
      pages.push(
        page(language, name, 'supportCategory', `support/categories/${name}`, readYaml(file)),
      )
    }
  }
  return { settings, blog, layouts, pages }
}

const page = (
  language: Language,
  name: string,
  type: PageType,
  path: string,
  data: Record<string, any>,
): Page => ({
  language,
  name,
  type,
  path: `/${language}/${path ? `${path}/` : ''}`,
  slug: path || undefined,
  data,
})

export const { settings, blog, layouts, pages } = readStore()

const byPath = new Map(pages.map((entry) => [entry.path, entry]))

/** The same page in the other language (every page of the store has its twin). */
export const twinOf = (entry: Page, language: Language) =>
  byPath.get(entry.path.replace(/^\/[a-z]{2}\//, `/${language}/`))

/**
 * The entries a list page shows as cards: the typed pages below it (the services below
 * `services`, the customer information below `customer-information`, the support clients below
 * `support` and on a support category's page).
 */
export function listingOf(entry: Page): Page[] {
  const below =
    entry.type === 'supportCategory'
      ? (other: Page) => other.type === 'supportClient'
      : (other: Page) => other.type !== 'page' && other.name.startsWith(`${entry.name}/`)
  return entry.type === 'page' || entry.type === 'supportCategory'
    ? pages.filter((other) => other.language === entry.language && below(other))
    : []
}

/** A service by its name (`cards`), for a case study's "services used". */
export const serviceOf = (language: Language, name: string) =>
  byPath.get(`/${language}/services/${name}/`)

const markdownIt = new MarkdownIt()

/** A field's Markdown as HTML. */
export const markdown = (text: string | undefined) => (text ? markdownIt.render(text) : '')

/** `Published on {date}` with its values filled in. */
export const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '')

export const formatDate = (date: string, language: Language) =>
  new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(date))
