import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CMS_COLLECTIONS } from '../../../src/cms/config'
import { cmsPathOf, isSystemDataFile, storeFileOf } from '../../../src/cms/paths'
import { listContentFiles } from '../../../src/content/file-store'
import { ROOT } from '../../../src/engine/config'
import { LANGUAGES } from '../../../src/shared/languages'

const storeFiles = await listContentFiles(join(ROOT, 'content'))

describe('CMS paths', () => {
  it('shows every file of the store in a collection, and maps it back to the same file', () => {
    expect(storeFiles.length).toBeGreaterThan(100)
    // Only the rates' data files, which come from the ECB and operations, stay outside.
    expect(storeFiles.filter(isSystemDataFile)).toEqual([
      'exchange-rates/ecb.xml',
      'exchange-rates/mastercard.csv',
    ])
    for (const file of storeFiles.filter((file) => !isSystemDataFile(file))) {
      const path = cmsPathOf(file)
      expect(path, file).toBeDefined()
      expect(storeFileOf(path as string), file).toBe(file)
    }
  })

  it('puts the language folder where Decap reads it, and where Decap inserts it', () => {
    for (const file of storeFiles.filter((file) => !isSystemDataFile(file))) {
      const path = cmsPathOf(file) as string
      const [language] = file.split('/')
      if (!LANGUAGES.some((candidate) => candidate === language)) continue
      const parts = path.split('/')
      // Decap takes the locale from the folder above the file…
      expect(parts.at(-2), file).toBe(language)
      // …finds the entry's base path by removing the first "{locale}/"…
      const base = path.replace(`${language}/`, '')
      expect(base, file).toBe([...parts.slice(0, -2), parts.at(-1)].join('/'))
      // …and writes each language at the base path with "/{locale}" before the entry's slug.
      const slug = (parts.at(-1) as string).replace(/\.(yaml|md)$/, '')
      expect(base.replace(`/${slug}`, `/${language}/${slug}`), file).toBe(path)
    }
  })

  it('names nested pages by their address, with dots for folders', () => {
    expect(cmsPathOf('de/pages/support/faq.yaml')).toBe('content/pages/de/support.faq.yaml')
    expect(cmsPathOf('en/pages/customer-information/germany/de-iban/german.yaml')).toBe(
      'content/customerInformation/en/customer-information.germany.de-iban.german.yaml',
    )
    expect(cmsPathOf('en/pages/services/cards.yaml')).toBe('content/service/en/cards.yaml')
    expect(cmsPathOf('en/layout.yaml')).toBe('content/siteTexts/en/layout.yaml')
    expect(cmsPathOf('blog/posts/hello.md')).toBe('content/blogPost/hello.md')
    expect(cmsPathOf('site.yaml')).toBe('content/site.yaml')
  })

  it('refuses names a store file cannot have, and files outside a collection', () => {
    for (const path of [
      'content/service/en/Cards.yaml',
      'content/service/en/cards.md',
      'content/service/en/cards.v2.yaml',
      'content/service/cards.yaml',
      'content/pages/en/support..faq.yaml',
      'content/siteTexts/en/footer.yaml',
      'content/../site.yaml',
      'public/images/x.svg',
    ]) {
      expect(() => storeFileOf(path), path).toThrow()
    }
    expect(cmsPathOf('en/pages/services/splitpay/survey.yaml')).toBe(
      'content/pages/en/services.splitpay.survey.yaml',
    )
    expect(cmsPathOf('notes.txt')).toBeUndefined()
  })

  it('gives every collection a name Decap cannot mistake for a language folder', () => {
    for (const collection of CMS_COLLECTIONS) {
      for (const language of LANGUAGES) expect(collection.name.endsWith(language)).toBe(false)
    }
  })
})
