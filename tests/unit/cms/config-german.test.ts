/**
 * The editor's configuration for a person whose language is German: every collection, field,
 * hint, list item, section type and choice the configuration names is in German, so that no
 * English meets them but what Decap itself says (its own locale, see the editor's browser
 * code). The English configuration stays as it was: `npm run dev`'s editor uses it.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CMS_COLLECTIONS, cmsConfig, SETTINGS_WORDS } from '../../../src/cms/config'
import { fieldLabel, GERMAN_FIELD_LABELS, sectionTypeLabel } from '../../../src/cms/field-labels'
import type { CmsField } from '../../../src/cms/fields'
import { GERMAN_OPTION_LABELS, germanHint } from '../../../src/cms/german'
import { createFileStore } from '../../../src/content/file-store'
import { ROOT } from '../../../src/engine/config'

interface Collection {
  name: string
  label: string
  label_singular?: string
  description: string
  summary?: string
  fields?: CmsField[]
  files?: { name: string; label: string; fields: CmsField[] }[]
}

const { documents } = await createFileStore(join(ROOT, 'content')).read()
const ORIGIN = 'http://localhost:5173'
const english = cmsConfig(ORIGIN, documents) as { collections: Collection[] }
const german = cmsConfig(ORIGIN, documents, 'de') as { collections: Collection[] }

/** A field seen with the English one it is made from, and where. */
interface Pair {
  at: string
  en: CmsField
  de: CmsField
}

/** Every field, list item and section type of both configurations, side by side. */
function pairs(): Pair[] {
  const found: Pair[] = []
  const walk = (en: readonly CmsField[], de: readonly CmsField[], at: string) => {
    en.forEach((field, index) => {
      const other = de[index] as CmsField
      const path = `${at} › ${field.name}`
      found.push({ at: path, en: field, de: other })
      walk(field.fields ?? [], other.fields ?? [], path)
      if (field.field && other.field) walk([field.field], [other.field], path)
      walk(field.types ?? [], other.types ?? [], path)
    })
  }
  english.collections.forEach((collection, index) => {
    const other = german.collections[index] as Collection
    walk(collection.fields ?? [], other.fields ?? [], collection.name)
    collection.files?.forEach((file, at) => {
      walk(file.fields, other.files?.[at]?.fields ?? [], `${collection.name} › ${file.name}`)
    })
  })
  return found
}

const fields = pairs()
const types = new Set(fields.flatMap(({ en }) => (en.types ?? []).map((type) => type)))

/** Every text of the German configuration a person reads: names, hints, descriptions. */
function germanTexts(): string[] {
  const texts: string[] = []
  for (const collection of german.collections) {
    texts.push(collection.label, collection.description)
    if (collection.label_singular) texts.push(collection.label_singular)
    for (const file of collection.files ?? []) texts.push(file.label)
  }
  for (const { de } of fields) {
    texts.push(de.label)
    if (de.label_singular) texts.push(de.label_singular)
    if (de.hint) texts.push(de.hint)
    if (de.pattern) texts.push(de.pattern[1])
    for (const option of de.options ?? []) {
      if (typeof option !== 'string') texts.push(option.label)
    }
  }
  return texts
}

/** English words no German text of the editor has (German has none of them). */
const ENGLISH_WORDS =
  /\b(the|of|and|with|at most|characters|which|this|its|your|page|pages|entry|entries)\b/i

describe("the editor's configuration in German", () => {
  it('names every collection and each settings file in German', () => {
    expect(german.collections).toHaveLength(english.collections.length)
    german.collections.forEach((collection, index) => {
      const other = english.collections[index] as Collection
      expect(collection.name).toBe(other.name)
      for (const key of ['label', 'description'] as const) {
        expect(collection[key].trim(), `${collection.name}.${key}`).not.toBe('')
        expect(collection[key], `${collection.name}.${key}`).not.toBe(other[key])
      }
      if (other.label_singular) {
        expect(collection.label_singular, collection.name).toBeTruthy()
        expect(collection.label_singular).not.toBe(other.label_singular)
      }
      collection.files?.forEach((file, at) => {
        expect(file.label).not.toBe(other.files?.[at]?.label)
      })
    })
    expect(german.collections.find((c) => c.name === 'blogPost')).toMatchObject({
      label: 'Blogbeiträge',
      label_singular: 'Blogbeitrag',
    })
    expect(german.collections.find((c) => c.name === 'settings')?.label).toBe(
      SETTINGS_WORDS.de.label,
    )
  })

  it('labels every field by its German label, and every section type by its German name', () => {
    expect(fields.length).toBeGreaterThan(400)
    for (const { at, en, de } of fields) {
      const label = types.has(en) ? sectionTypeLabel(en.name, 'de') : fieldLabel(en.name, 'de')
      expect(de.label, at).toBe(label)
      expect(de.label.trim(), at).not.toBe('')
      // Where German has a word of its own, the label is not the English one.
      if (Object.hasOwn(GERMAN_FIELD_LABELS, en.name) && GERMAN_FIELD_LABELS[en.name] !== en.label)
        expect(de.label, at).not.toBe(en.label)
    }
    const sections = fields.find(({ at }) => at === 'pages › sections')?.de
    expect(sections?.label).toBe('Abschnitte')
    expect(sections?.types?.map((type) => type.label)).toContain('Fließtext')
  })

  it('gives every hint in German, none left in English', () => {
    const hinted = fields.filter(({ en }) => en.hint)
    expect(hinted.length).toBeGreaterThan(300)
    const english = hinted.filter(({ en, de }) => !de.hint?.trim() || de.hint === en.hint)
    expect(english.map(({ at, en }) => `${at}: ${en.hint}`)).toEqual([])
    expect(germanHint('The page title; at most 120 characters.')).toBe(
      'Der Seitentitel; höchstens 120 Zeichen.',
    )
    expect(germanHint('The survey name in German; at most 120 characters.')).toBe(
      'Der Name der Umfrage auf Deutsch; höchstens 120 Zeichen.',
    )
  })

  it('names each item of a list, and says the length limit in German', () => {
    for (const { at, en, de } of fields) {
      if (en.widget === 'list') expect(de.label_singular, at).toBeTruthy()
      if (en.pattern)
        expect(de.pattern, at).toEqual([
          en.pattern[0],
          expect.stringMatching(/^Höchstens \d+ Zeichen$/),
        ])
    }
    const sections = fields.find(({ at }) => at === 'pages › sections')?.de
    expect(sections?.label_singular).toBe('Abschnitt')
  })

  it('offers the choices of selects by German names, keeping their values', () => {
    for (const { at, en, de } of fields) {
      if (!en.options || en.options.some((option) => typeof option !== 'string')) continue
      expect(
        de.options?.map((option) => (typeof option === 'string' ? option : option.value)),
        at,
      ).toEqual(en.options)
      for (const option of de.options ?? []) {
        expect(typeof option, `${at}: ${String(option)}`).not.toBe('string')
      }
    }
    expect(Object.keys(GERMAN_OPTION_LABELS)).toContain('FULL_TIME')
    const employment = fields.find(({ at }) => at.endsWith('› employmentType'))?.de
    expect(employment?.options).toContainEqual({ label: 'Vollzeit', value: 'FULL_TIME' })
  })

  it('leaks no English: no collection label of the English editor, no English words', () => {
    const texts = germanTexts()
    const collectionLabels = new Set(
      english.collections.flatMap((collection) => [
        collection.label,
        ...(collection.label_singular ? [collection.label_singular] : []),
      ]),
    )
    expect(texts.filter((text) => collectionLabels.has(text))).toEqual([])
    // Placeholders ({page}) are the site's names for values, not words.
    const words = (text: string) => text.replace(/\{[^}]*\}/g, '')
    expect(texts.filter((text) => ENGLISH_WORDS.test(words(text)))).toEqual([])
  })

  it('names the entries reference fields offer by their German titles', () => {
    const english = fields.find(({ en }) => en.name === 'services' && en.multiple)
    expect(english).toBeDefined()
    const labels = (field: CmsField | undefined) =>
      (field?.options ?? []).map((option) => (typeof option === 'string' ? option : option.label))
    const values = (field: CmsField | undefined) =>
      (field?.options ?? []).map((option) => (typeof option === 'string' ? option : option.value))
    expect(new Set(values(english?.de))).toEqual(new Set(values(english?.en)))
    expect(labels(english?.de)).not.toEqual(labels(english?.en))
  })
})

describe("the editor's configuration in English", () => {
  it('is the configuration npm run dev has always had: English, no German words', () => {
    expect(cmsConfig(ORIGIN, documents, 'en')).toEqual(cmsConfig(ORIGIN, documents))
    for (const [index, collection] of english.collections.entries()) {
      const words = CMS_COLLECTIONS[index]
      if (words) expect(collection.label).toBe(words.label)
    }
    const texts = JSON.stringify(english)
    expect(texts).not.toMatch(/Höchstens|Abschnitt|Blogbeiträge/)
    expect(fields.every(({ en }) => en.label_singular === undefined)).toBe(true)
  })
})
