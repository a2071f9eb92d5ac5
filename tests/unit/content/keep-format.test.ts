import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { CORE_SCHEMA, dump } from 'js-yaml'
import { describe, expect, it } from 'vitest'
import { parseDocument } from 'yaml'
import { parseContentFile } from '../../../src/content/file-store'
import { rewriteKeepingFormat } from '../../../src/content/keep-format'

const CONTENT = join(import.meta.dirname, '../../../content')
const files = readdirSync(CONTENT, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && /\.(ya?ml|md)$/.test(entry.name))
  .map((entry) => relative(CONTENT, join(entry.parentPath, entry.name)).split('\\').join('/'))
  .sort()
const yamlFiles = files.filter((file) => !file.endsWith('.md'))
const read = (file: string) => readFileSync(join(CONTENT, file), 'utf8')

type Data = Record<string, unknown>
type Path = (string | number)[]

function dataOf(file: string, text: string): Data {
  const parsed = parseContentFile(file, text)
  if ('problem' in parsed) throw new Error(parsed.problem.message)
  return parsed.document.data as Data
}

/** The data as Decap sends it: another YAML style, long lines unbroken. */
function restyle(file: string, data: Data): string {
  const yaml = (value: unknown) => dump(value, { lineWidth: -1, schema: CORE_SCHEMA })
  if (!file.endsWith('.md')) return yaml(data)
  const { body, ...front } = data
  return `---\n${yaml(front)}---\n${String(body)}`
}

/** Paths of the string leaves, depth first in the file's order. */
function stringLeaves(value: unknown, path: Path = []): Path[] {
  if (typeof value === 'string') return [path]
  if (Array.isArray(value))
    return value.flatMap((item, index) => stringLeaves(item, [...path, index]))
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => stringLeaves(item, [...path, key]))
  }
  return []
}

function withLeaf(data: Data, path: Path, change: (text: string) => string): Data {
  const copy = structuredClone(data)
  let parent: Record<string | number, unknown> = copy
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>
  const last = path[path.length - 1] as string | number
  parent[last] = change(parent[last] as string)
  return copy
}

/** The 0-based lines the original source of the value at `path` spans. */
function linesOf(text: string, path: Path): [number, number] {
  const node = parseDocument(text).getIn(path, true) as { range?: [number, number, number] }
  if (!node?.range) throw new Error(`no node at ${path.join('.')}`)
  const [start, end] = node.range
  const line = (at: number) => text.slice(0, at).split('\n').length - 1
  return [line(start), line(Math.max(start, end - 1))]
}

/** The lines of `before` that `after` changed: what is left between their common ends. */
function changedLines(before: string, after: string): [number, number] | undefined {
  const a = before.split('\n')
  const b = after.split('\n')
  let head = 0
  while (head < a.length && head < b.length && a[head] === b[head]) head++
  if (head === a.length && head === b.length) return undefined
  let tail = 0
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail++
  }
  return [head, a.length - 1 - tail]
}

describe('rewriteKeepingFormat on every content file', () => {
  it.each(files)('%s is kept as it is when the data did not change', (file) => {
    const text = read(file)
    expect(rewriteKeepingFormat(file, text, text)).toBe(text)
    expect(rewriteKeepingFormat(file, text, restyle(file, dataOf(file, text)))).toBe(text)
  })

  it.each(yamlFiles)('%s changes only the lines of an edited text', (file) => {
    const text = read(file)
    const data = dataOf(file, text)
    const leaves = stringLeaves(data)
    for (const path of new Set([leaves[0], leaves[leaves.length - 1]])) {
      if (!path) continue
      const changed = withLeaf(data, path, (value) => `${value} Changed.`)
      const result = rewriteKeepingFormat(file, text, restyle(file, changed))
      expect(dataOf(file, result)).toEqual(changed)
      const [first, last] = linesOf(text, path)
      const [from, to] = changedLines(text, result) ?? [first, last]
      expect(from, `${path.join('.')} changed line ${from + 1}`).toBeGreaterThanOrEqual(first)
      expect(to, `${path.join('.')} changed line ${to + 1}`).toBeLessThanOrEqual(last)
    }
  })
})

describe('rewriteKeepingFormat', () => {
  const page = `# The services page.
title: Cards
description: >-
  Issue virtual and physical debit and credit cards under your own brand,
  including mobile wallets.
summary: "Cards, quoted"
sections:
  - type: hero
    title: One

  - type: text
    title: Two
    text: |
      Some **Markdown**.

  - type: text
    title: Three # the last one
tags: [a, b]
`
  const rewrite = (updated: unknown) =>
    rewriteKeepingFormat('page.yaml', page, dump(updated, { lineWidth: -1 }))
  const data = () => dataOf('page.yaml', page)

  it('keeps a folded text folded when it is edited', () => {
    const description = `${data().description} Now with Apple Pay, Google Pay and Samsung Pay, all of them tokenised by us.`
    const result = rewrite({ ...data(), description })
    expect(dataOf('page.yaml', result).description).toBe(description)
    expect(result).toContain('description: >-\n  Issue virtual')
    expect(result.split('\n').every((line) => line.length <= 100)).toBe(true)
    expect(result.replace(/description:[\s\S]*?\nsummary/, '')).toBe(
      page.replace(/description:[\s\S]*?\nsummary/, ''),
    )
  })

  it('keeps the line breaks of a folded text around the words that changed', () => {
    const text = `intro: >-
  Give your customers debit and credit cards under your own brand: virtual cards right after
  onboarding, physical cards in your design and cards in mobile wallets. Lumora Bank is the
  licensed issuer and looks after the card network, fraud prevention and compliance.
next: 1
`
    const intro = String(dataOf('f.yaml', text).intro)
    const save = (changed: string) =>
      rewriteKeepingFormat('f.yaml', text, dump({ intro: changed, next: 1 }, { lineWidth: -1 }))
    expect(save(intro.replace('physical cards', 'plastic cards'))).toBe(
      text.replace('physical cards', 'plastic cards'),
    )
    expect(save(`${intro} Ask us.`)).toBe(text.replace('compliance.', 'compliance. Ask us.'))
    const longer = intro.replace('fraud prevention', 'fraud prevention, chargebacks, disputes')
    const result = save(longer)
    expect(dataOf('f.yaml', result).intro).toBe(longer)
    expect(result.split('\n').slice(0, 3)).toEqual(text.split('\n').slice(0, 3))
    expect(result.split('\n').every((line) => line.length <= 96)).toBe(true)
  })

  it('keeps a quoted text quoted when it is edited', () => {
    const result = rewrite({ ...data(), summary: 'Cards, still quoted' })
    expect(result).toBe(page.replace('"Cards, quoted"', '"Cards, still quoted"'))
  })

  it('adds a key after the one it follows in the new data', () => {
    const { title, ...rest } = data()
    const result = rewrite({ title, icon: 'card', ...rest })
    expect(result).toBe(page.replace('title: Cards\n', 'title: Cards\nicon: card\n'))
  })

  it('adds a long new text folded and a text with line breaks literal', () => {
    const intro = 'Cards for your customers. '.repeat(8).trim()
    const note = 'First line.\nSecond line.'
    const result = rewrite({ ...data(), intro, note })
    expect(dataOf('page.yaml', result)).toEqual({ ...data(), intro, note })
    expect(result.startsWith(page)).toBe(true)
    expect(result.slice(page.length)).toMatch(
      /^intro: >-\n {2}Cards[^\n]*\n {2}\S[\s\S]*note: \|-\n/,
    )
  })

  it('removes a key', () => {
    const { summary: _, ...rest } = data()
    expect(rewrite(rest)).toBe(page.replace('summary: "Cards, quoted"\n', ''))
  })

  it('adds and removes sections, leaving the others byte for byte', () => {
    const sections = data().sections as Data[]
    const added = { type: 'faq', title: 'Four', items: [{ q: 'Why?', a: 'Because.' }] }
    const result = rewrite({ ...data(), sections: [sections[0], sections[2], added] })
    expect(dataOf('page.yaml', result).sections).toEqual([sections[0], sections[2], added])
    expect(result).toBe(
      page
        .replace('  - type: text\n    title: Two\n    text: |\n      Some **Markdown**.\n', '')
        .replace(
          '# the last one\n',
          '# the last one\n  - type: faq\n    title: Four\n    items:\n      - q: Why?\n        a: Because.\n',
        ),
    )
  })

  it('edits a changed section in place and keeps its comment', () => {
    const sections = data().sections as Data[]
    const changed = [sections[0], sections[1], { ...sections[2], title: 'Drei' }]
    const result = rewrite({ ...data(), sections: changed })
    expect(result).toBe(page.replace('title: Three # the last one', 'title: Drei # the last one'))
  })

  it('removes the first key of a section and keeps the rest behind its dash', () => {
    const sections = data().sections as Data[]
    const { type: _, ...untyped } = sections[1] as Data
    const result = rewrite({ ...data(), sections: [sections[0], untyped, sections[2]] })
    expect(result).toBe(page.replace('  - type: text\n    title: Two', '  - title: Two'))
    const renamed = { kind: 'text', ...untyped }
    const again = rewrite({ ...data(), sections: [sections[0], renamed, sections[2]] })
    expect(again).toBe(
      page.replace('  - type: text\n    title: Two', '  - kind: text\n    title: Two'),
    )
  })

  it('keeps the comments of a file', () => {
    const result = rewrite({ ...data(), title: 'Karten' })
    expect(result).toBe(page.replace('title: Cards', 'title: Karten'))
    expect(result.startsWith('# The services page.\n')).toBe(true)
  })

  it('writes a changed flow list on its line again', () => {
    const result = rewrite({ ...data(), tags: ['a', 'c', 'b', '1'] })
    expect(result).toBe(page.replace('[a, b]', '[a, c, b, "1"]'))
  })

  it('gives back the editor text when the stored one cannot be edited in place', () => {
    const anchored = 'a: &x one\nb: *x\n'
    const updated = 'a: two\nb: one\n'
    expect(rewriteKeepingFormat('f.yaml', anchored, updated)).toBe(updated)
    expect(rewriteKeepingFormat('f.yaml', 'a: [unclosed\n', updated)).toBe(updated)
  })

  describe('in Markdown', () => {
    const post = `---
title: Lumora opens its KYC platform
description: >-
  Video ident, eID, document checks and BankIdent
  through one API.
date: 2026-09-15
---
**Berlin –** The bank opens its platform.

## One API
`
    const postData = () => dataOf('post.md', post)
    const save = (changed: Data) =>
      rewriteKeepingFormat('post.md', post, restyle('post.md', changed))

    it('keeps the front matter and edits a field of it', () => {
      const result = save({ ...postData(), title: 'Lumora opens its KYC platform to partners' })
      expect(result).toBe(post.replace('KYC platform\n', 'KYC platform to partners\n'))
    })

    it('replaces the body only when it changed', () => {
      const body = `${postData().body}\nMore text.\n`
      const result = save({ ...postData(), body })
      expect(result).toBe(`${post}\nMore text.\n`)
      const changedFront = save({ ...postData(), date: '2026-09-16' })
      expect(changedFront).toBe(post.replace('2026-09-15', '2026-09-16'))
    })
  })
})
