/**
 * Generates a content store of `total` pages, half English and half German: every page of
 * the specification plus numbered filler pages, with the shared files a build needs.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { stringify } from 'yaml'
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

function layout(language: string) {
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
    strings: {
      skipToContent: 'Skip to content',
      primaryNavigation: 'Main navigation',
      languageSwitcherLabel: 'Choose language',
      languageName: language === 'de' ? 'Deutsch' : 'English',
      navigatedTo: 'Navigated to',
      footerNavigation: 'Footer navigation',
      home: 'Home',
    },
  }
}

/** Writes the store and returns the number of routed pages it holds. */
export async function generateContent(dir: string, total: number): Promise<number> {
  await rm(dir, { recursive: true, force: true })
  const files: [string, unknown][] = [
    [
      'site.yaml',
      { brandName: 'Benchmark Bank', shortName: 'Bench', legalEntity: 'Benchmark Bank AG' },
    ],
    ['blog/archive.yaml', { en: page('Blog', 'en'), de: page('Blog', 'de') }],
  ]
  const perLanguage = Math.max(Math.floor(total / LANGUAGES.length), SPEC_PAGES.length)
  for (const language of LANGUAGES) {
    files.push([`${language}/layout.yaml`, layout(language)])
    files.push([`${language}/pages/404.yaml`, page('Page not found', language)])
    for (const path of SPEC_PAGES) {
      const name = path === '/' ? 'index' : path.slice(1, -1)
      files.push([`${language}/pages/${name}.yaml`, page(`Page ${name}`, language)])
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
