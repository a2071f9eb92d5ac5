import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { ALL_COLLECTIONS } from '../../../src/content/collections'
import { createFileStore, parseContentFile } from '../../../src/content/file-store'
import { loadContent } from '../../../src/content/load'
import { memorySource, pageFile, problemsOf, validDocuments } from '../../fixtures/content'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

describe('content validation', () => {
  it('accepts a complete store', async () => {
    const content = await loadContent(memorySource(validDocuments()), {
      collections: ALL_COLLECTIONS,
    })
    expect(content.settings.brandName).toBe('Test Bank')
    expect(content.entries).toHaveLength(124)
  })

  it('names file and field of a missing field, with what was expected', async () => {
    const documents = validDocuments()
    documents.set('en/pages/about.yaml', {
      description: 'About us, described at length.',
      intro: 'Hi',
    })
    expect(await problemsOf(documents)).toEqual([
      { file: 'en/pages/about.yaml', field: 'title', message: 'expected the page title as text' },
    ])
  })

  it('names a wrong type, an empty text and an unknown field, all at once', async () => {
    const documents = validDocuments()
    documents.set('de/pages/press.yaml', {
      title: 42,
      description: '   ',
      intro: 'Presse',
      colour: 'red',
    })
    const problems = await problemsOf(documents)
    expect(problems).toEqual(
      expect.arrayContaining([
        { file: 'de/pages/press.yaml', field: 'title', message: 'expected the page title as text' },
        {
          file: 'de/pages/press.yaml',
          field: 'description',
          message: 'expected the meta description, found an empty text',
        },
        {
          file: 'de/pages/press.yaml',
          field: '',
          message: 'unknown field "colour": expected only the fields of this content type',
        },
      ]),
    )
    expect(problems).toHaveLength(3)
  })

  it('names nested fields by their path', async () => {
    const documents = validDocuments()
    const layout = documents.get('en/layout.yaml') as { navigation: { href: string }[] }
    layout.navigation[0] = { href: 'services' } as never
    const problems = await problemsOf(documents)
    expect(problems).toEqual(
      expect.arrayContaining([
        {
          file: 'en/layout.yaml',
          field: 'navigation.0.label',
          message: 'expected a link label as text',
        },
        {
          file: 'en/layout.yaml',
          field: 'navigation.0.href',
          message: 'expected a link starting with "/", "https://", "mailto:" or "tel:"',
        },
      ]),
    )
  })

  it('reports a broken internal link', async () => {
    const documents = validDocuments()
    const layout = documents.get('de/layout.yaml') as { footer: { links: { href: string }[] }[] }
    const link = layout.footer[0]?.links[0]
    if (link) link.href = '/de/impressum/'
    expect(await problemsOf(documents)).toEqual([
      {
        file: 'de/layout.yaml',
        field: 'footer.0.links.0.href',
        message: 'expected a link to an existing page; nothing is published at /de/impressum/',
      },
    ])
  })

  it('reports a spec page missing in one language', async () => {
    const documents = validDocuments()
    documents.delete(pageFile('de', '/services/cards/'))
    const problems = await problemsOf(documents)
    expect(problems).toContainEqual({
      file: 'de/pages/services/cards.yaml',
      field: '',
      message:
        'expected this page: the route /de/services/cards/ of the specification has no content',
    })
  })

  it('reports a page without its twin in the other language', async () => {
    const documents = validDocuments()
    documents.set('en/pages/partners.yaml', {
      title: 'Accessibility',
      description: 'Accessibility statement of the bank.',
      intro: 'We aim for WCAG 2.1 AA.',
    })
    expect(await problemsOf(documents)).toEqual([
      {
        file: 'en/pages/partners.yaml',
        field: '',
        message:
          'expected a de twin at de/pages/partners.yaml; every page exists in every language',
      },
    ])
  })

  it('reports missing shared files and unknown files', async () => {
    const documents = validDocuments()
    documents.delete('site.yaml')
    documents.set('fr/pages/about.yaml', { title: 'À propos' })
    const problems = await problemsOf(documents)
    expect(problems).toContainEqual({
      file: 'site.yaml',
      field: '',
      message: 'expected this file; it is missing',
    })
    expect(problems.find((problem) => problem.file === 'fr/pages/about.yaml')?.message).toMatch(
      /^unknown file/,
    )
  })

  it('formats every problem into one error message with the content directory', async () => {
    const documents = validDocuments()
    documents.set('en/pages/about.yaml', {})
    await expect(loadContent({ ...memorySource(documents), label: 'content' })).rejects.toThrow(
      /content\/en\/pages\/about\.yaml › title: expected the page title as text/,
    )
  })
})

describe('file store', () => {
  it('reads YAML files and reports unparsable ones with their line', async () => {
    const dir = await temporaryFolder('content-')
    onTestFinished(() => removeFolder(dir))
    await mkdir(join(dir, 'en', 'pages'), { recursive: true })
    await writeFile(join(dir, 'site.yaml'), 'brandName: Test Bank\n')
    await writeFile(join(dir, 'en', 'pages', 'about.yaml'), 'title: About\nintro: [unclosed\n')
    const { documents, problems } = await createFileStore(dir).read()
    expect(documents).toEqual([{ file: 'site.yaml', data: { brandName: 'Test Bank' } }])
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatchObject({ file: 'en/pages/about.yaml', field: '' })
    expect(problems[0]?.message).toMatch(/^expected valid YAML \(line \d+\)/)
  })

  it('names the line of a YAML mistake in the file, also below front matter, and keeps dates as text', () => {
    expect(parseContentFile('a.yaml', 'title: About\ntitle: Again\n')).toEqual({
      problem: {
        file: 'a.yaml',
        field: '',
        message: 'expected valid YAML (line 2): duplicated mapping key',
      },
    })
    expect(parseContentFile('b.md', '---\ntitle: About\n  bad: indent\n---\nText\n')).toMatchObject(
      {
        problem: {
          file: 'b.md',
          message: expect.stringMatching(/^expected valid YAML \(line 3\)/),
        },
      },
    )
    expect(parseContentFile('c.yaml', 'date: 2025-01-31\nshown: yes\ncount: 3\n')).toEqual({
      document: { file: 'c.yaml', data: { date: '2025-01-31', shown: 'yes', count: 3 } },
    })
  })

  it('keeps one parse per file name, whatever folder the store reads from', async () => {
    // A commit's content unpacked to a folder of its own each time: the same files, read again.
    const folders = [await temporaryFolder('content-a-'), await temporaryFolder('content-b-')]
    onTestFinished(async () => {
      for (const folder of folders) await removeFolder(folder)
    })
    for (const folder of folders) await writeFile(join(folder, 'about.yaml'), 'title: About\n')
    const read = async (folder: string) =>
      (await createFileStore(folder).read()).documents.find(
        (document) => document.file === 'about.yaml',
      )?.data
    const first = await read(folders[0] as string)
    expect(await read(folders[1] as string)).toBe(first)
    await writeFile(join(folders[1] as string, 'about.yaml'), 'title: About us\n')
    expect(await read(folders[1] as string)).toEqual({ title: 'About us' })
    expect(await read(folders[0] as string)).toEqual({ title: 'About' })
  })

  it('parses again only the files whose text changed, and reads the same text alike', async () => {
    const dir = await temporaryFolder('content-')
    onTestFinished(() => removeFolder(dir))
    await writeFile(join(dir, 'site.yaml'), 'brandName: Test Bank\n')
    await writeFile(join(dir, 'about.yaml'), 'title: About\n')
    const store = createFileStore(dir)
    const first = await store.read()
    await writeFile(join(dir, 'about.yaml'), 'title: About us\n')
    const second = await store.read()
    const data = (read: typeof first, file: string) =>
      read.documents.find((document) => document.file === file)?.data
    expect(data(second, 'about.yaml')).toEqual({ title: 'About us' })
    expect(data(second, 'site.yaml')).toEqual({ brandName: 'Test Bank' })
    // The unchanged file was not parsed again: the build shares what it read before, frozen so
    // that no build can change it for the next.
    expect(data(second, 'site.yaml')).toBe(data(first, 'site.yaml'))
    expect(Object.isFrozen(data(second, 'site.yaml'))).toBe(true)
    // A file made unreadable is reported, not answered from memory.
    await writeFile(join(dir, 'site.yaml'), 'brandName: [unclosed\n')
    const third = await store.read()
    expect(third.problems).toMatchObject([{ file: 'site.yaml' }])
    expect(data(third, 'site.yaml')).toBeUndefined()
  })

  it('reports a missing content directory', async () => {
    const { problems } = await createFileStore('/nonexistent/content').read()
    expect(problems[0]?.message).toMatch(/^cannot read the content directory/)
  })
})
