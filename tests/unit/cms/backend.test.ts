import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import { generateContent } from '../../../bench/generate-content'
import { createCmsBackend } from '../../../src/cms/backend'
import { createFileStore } from '../../../src/content/file-store'
import { loadContent } from '../../../src/content/load'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

let dir: string
let contentDir: string
let backend: ReturnType<typeof createCmsBackend>

beforeAll(async () => {
  dir = await temporaryFolder('cms-backend-')
  contentDir = join(dir, 'content')
  await generateContent(contentDir, 0)
  backend = createCmsBackend({ contentDir, publicDir: join(dir, 'public') })
})

afterAll(async () => {
  await removeFolder(dir)
})

const call = (action: string, params: Record<string, unknown> = {}) =>
  backend.handle({ action, params: { branch: 'main', ...params } })

const read = (file: string) => readFile(join(contentDir, file), 'utf8')

describe('CMS local backend: reading', () => {
  it('introduces itself as a local store with direct publishing', async () => {
    expect(await call('info')).toEqual({
      status: 200,
      body: { repo: 'content', publish_modes: ['simple'], type: 'local_fs' },
    })
  })

  it("lists a collection's entries in both languages, and only entries of its type", async () => {
    const { status, body } = await call('entriesByFolder', {
      folder: 'content/supportClient',
      extension: 'yaml',
      depth: 2,
    })
    expect(status).toBe(200)
    const paths = (body as { file: { path: string } }[]).map((entry) => entry.file.path)
    expect(paths).toContain('content/supportClient/en/nuri.yaml')
    expect(paths).toContain('content/supportClient/de/nuri.yaml')
    // support/faq lives in the same store folder but is a page, not a partner page.
    expect(paths.some((path) => path.includes('faq'))).toBe(false)
    expect(paths).toHaveLength(24)
  })

  it('reads an entry with its text and a content hash', async () => {
    const { body } = await call('getEntry', { path: 'content/pages/de/support.faq.yaml' })
    const entry = body as { data: string; file: { path: string; id: string } }
    expect(entry.data).toBe(await read('de/pages/support/faq.yaml'))
    expect(entry.file).toEqual({
      path: 'content/pages/de/support.faq.yaml',
      id: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
  })

  it('refuses paths that leave the store or name no collection', async () => {
    for (const path of [
      'content/../package.json',
      'content/pages/en/../../site.yaml',
      'src/programs/build.ts',
      'content/nothing/en/x.yaml',
    ]) {
      const { status, body } = await call('getEntry', { path })
      expect(status, path).toBe(400)
      expect((body as { error: string }).error).toMatch(/content|collection|path/)
    }
  })

  it('answers an unknown action with an error naming it', async () => {
    expect(await call('publishUnpublishedEntry')).toEqual({
      status: 422,
      body: { error: 'unknown action "publishUnpublishedEntry"' },
    })
  })
})

describe('CMS local backend: saving', () => {
  it('writes a changed entry to the store, in both languages, without empty fields', async () => {
    const en = parse(await read('en/pages/about.yaml'))
    const de = parse(await read('de/pages/about.yaml'))
    const { status } = await call('persistEntry', {
      dataFiles: [
        {
          path: 'content/pages/en/about.yaml',
          slug: 'about',
          raw: stringify({
            ...en,
            title: 'About the bank',
            sections: [{ type: 'hero', heading: 'Banking in your product', text: '', actions: [] }],
          }),
        },
        {
          path: 'content/pages/de/about.yaml',
          slug: 'about',
          raw: stringify({ ...de, title: 'Über die Bank' }),
        },
      ],
      assets: [],
      options: { commitMessage: 'Update about' },
    })
    expect(status).toBe(200)
    expect(parse(await read('en/pages/about.yaml'))).toEqual({
      title: 'About the bank',
      description: en.description,
      intro: en.intro,
      sections: [{ type: 'hero', heading: 'Banking in your product' }],
    })
    expect(parse(await read('de/pages/about.yaml')).title).toBe('Über die Bank')
    await expect(loadContent(createFileStore(contentDir))).resolves.toBeDefined()
  })

  it('creates a new entry where the store keeps its type', async () => {
    const job = {
      title: 'Data engineer',
      description: 'Build the data platform of a bank.',
      intro: 'Join the data team.',
      team: 'Data',
      datePosted: '2026-11-01',
      validThrough: '2027-01-31',
      employmentType: 'FULL_TIME',
      location: { city: 'Berlin', country: 'DE' },
      remote: true,
      body: 'What you will do.',
      applyEmail: 'jobs@example.com',
    }
    const { status } = await call('persistEntry', {
      dataFiles: ['en', 'de'].map((language) => ({
        path: `content/jobPosting/${language}/data-engineer.yaml`,
        slug: 'data-engineer',
        raw: JSON.stringify(job),
      })),
      assets: [],
      options: {},
    })
    expect(status).toBe(200)
    // Its address, from the file name the editor made from the title, kept from now on.
    expect(parse(await read('en/jobs/data-engineer.yaml'))).toEqual({
      ...job,
      slug: 'data-engineer',
    })
    expect(existsSync(join(contentDir, 'de/jobs/data-engineer.yaml'))).toBe(true)
  })

  it('refuses a change that breaks the content, says what and where, and keeps the files', async () => {
    const before = await read('en/pages/studies/embedded-finance.yaml')
    const study = parse(before)
    study.methodology = 'See [the survey](/en/no-such-survey/).'
    const { status, body } = await call('persistEntry', {
      dataFiles: [
        {
          path: 'content/study/en/embedded-finance.yaml',
          slug: 'embedded-finance',
          raw: JSON.stringify(study),
        },
      ],
      assets: [],
      options: {},
    })
    expect(status).toBe(422)
    const error = (body as { error: string }).error
    expect(error).toMatch(/nothing was saved/)
    expect(error).toContain(
      'content/en/pages/studies/embedded-finance.yaml › methodology: expected a link to an existing page; nothing is published at /en/no-such-survey/',
    )
    expect(await read('en/pages/studies/embedded-finance.yaml')).toBe(before)
  })

  it('treats a cleared required field as missing, and says which', async () => {
    const study = parse(await read('de/pages/studies/embedded-finance.yaml'))
    const { status, body } = await call('persistEntry', {
      entry: {
        path: 'content/study/de/embedded-finance.yaml',
        slug: 'embedded-finance',
        raw: stringify({ ...study, title: '  ' }),
      },
      assets: [],
      options: {},
    })
    expect(status).toBe(422)
    expect((body as { error: string }).error).toContain(
      'content/de/pages/studies/embedded-finance.yaml › title: expected the page title',
    )
  })

  it('refuses an entry without its twin', async () => {
    const { status, body } = await call('persistEntry', {
      entry: {
        path: 'content/pressRelease/en/lonely.md',
        slug: 'lonely',
        raw: '---\ntitle: Alone\ndescription: Only in English.\ndate: 2026-11-02\n---\nText.\n',
      },
      assets: [],
      options: {},
    })
    expect(status).toBe(422)
    expect((body as { error: string }).error).toContain('content/en/press/lonely.md')
    expect(existsSync(join(contentDir, 'en/press/lonely.md'))).toBe(false)
  })

  it('saves valid changes while an unrelated file is already broken', async () => {
    const broken = join(contentDir, 'en/pages/careers.yaml')
    const careers = await readFile(broken, 'utf8')
    await writeFile(broken, 'title: [unclosed\n')
    try {
      const raw = await read('en/pages/press.yaml')
      const { status } = await call('persistEntry', {
        entry: {
          path: 'content/pages/en/press.yaml',
          slug: 'press',
          raw: raw.replace(/^title: .*$/m, 'title: Press and media'),
        },
        assets: [],
        options: {},
      })
      expect(status).toBe(200)
      expect(await read('en/pages/press.yaml')).toMatch(/^title: Press and media$/m)
    } finally {
      await writeFile(broken, careers)
    }
  })

  it('refuses to delete an entry others refer to, and keeps it', async () => {
    const { status, body } = await call('deleteFiles', {
      paths: ['content/supportCategory/en/general.yaml', 'content/supportCategory/de/general.yaml'],
      options: {},
    })
    expect(status).toBe(422)
    expect((body as { error: string }).error).toMatch(/› category/)
    expect(existsSync(join(contentDir, 'en/support-categories/general.yaml'))).toBe(true)
  })

  it('deletes an entry nothing refers to, in both languages', async () => {
    const { status } = await call('deleteFiles', {
      paths: [
        'content/jobPosting/en/data-engineer.yaml',
        'content/jobPosting/de/data-engineer.yaml',
      ],
      options: {},
    })
    expect(status).toBe(200)
    expect(existsSync(join(contentDir, 'en/jobs/data-engineer.yaml'))).toBe(false)
    expect(existsSync(join(contentDir, 'de/jobs/data-engineer.yaml'))).toBe(false)
  })

  it('stores uploaded images under public/images only, and only images', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64')
    const saved = await call('persistMedia', {
      asset: { path: 'public/images/blog/cover.svg', content: svg, encoding: 'base64' },
      options: {},
    })
    expect(saved.status).toBe(200)
    expect(saved.body).toMatchObject({ path: 'public/images/blog/cover.svg', name: 'cover.svg' })
    const listed = await call('getMedia', { mediaFolder: 'public/images/blog' })
    expect(listed.body).toEqual([expect.objectContaining({ name: 'cover.svg', content: svg })])
    const script = await call('persistMedia', {
      asset: { path: 'public/images/x.js', content: svg, encoding: 'base64' },
      options: {},
    })
    expect(script).toEqual({
      status: 400,
      body: { error: 'x.js is not an image: expected svg, png, jpg, webp or avif' },
    })
    const outside = await call('persistMedia', {
      asset: { path: 'public/sw.js', content: svg, encoding: 'base64' },
      options: {},
    })
    expect(outside.status).toBe(400)
  })
})

describe('CMS local backend: the preview before a save', () => {
  const about = (intro: string) => ({
    title: 'About us',
    description: 'What we do.',
    intro,
  })

  it('gives the content with the entry as edited, without writing it', async () => {
    const before = await read('en/pages/about.yaml')
    const preview = await backend.preview([
      { path: 'content/pages/en/about.yaml', data: about('We are a bank, edited.') },
      { path: 'content/pages/de/about.yaml', data: about('Wir sind eine Bank.') },
    ])
    expect(preview.problems).toEqual([])
    expect(preview.files).toEqual(['en/pages/about.yaml', 'de/pages/about.yaml'])
    const entry = preview.content?.entries.find((each) => each.file === 'en/pages/about.yaml')
    expect(entry?.data.intro).toBe('We are a bank, edited.')
    expect(await read('en/pages/about.yaml')).toBe(before)
  })

  it('names a broken link as a save and the build would, with file and field', async () => {
    const preview = await backend.preview([
      {
        path: 'content/pages/en/about.yaml',
        data: {
          ...about('We are a bank.'),
          sections: [{ type: 'richText', body: 'See [nothing](/en/nothing-here/).' }],
        },
      },
      { path: 'content/pages/de/about.yaml', data: about('Text.') },
    ])
    expect(preview.content).toBeUndefined()
    expect(preview.problems).toEqual([
      'content/en/pages/about.yaml › sections.0.body: expected a link to an existing page; nothing is published at /en/nothing-here/',
    ])
  })

  it('names a missing field', async () => {
    const preview = await backend.preview([
      { path: 'content/pages/de/about.yaml', data: { title: 'Über uns', intro: 'Text.' } },
    ])
    expect(preview.problems).toEqual([
      'content/de/pages/about.yaml › description: expected the meta description as text',
    ])
  })

  it('refuses paths outside the store', async () => {
    await expect(backend.preview([{ path: 'content/../etc/passwd', data: {} }])).rejects.toThrow(
      /not a path inside the content store/,
    )
  })
})

describe('CMS local backend: uploading images', () => {
  const upload = (name: string, data: Buffer) =>
    call('persistMedia', {
      asset: {
        path: `public/images/${name}`,
        content: data.toString('base64'),
        encoding: 'base64',
      },
    })
  const png = () =>
    sharp({ create: { width: 40, height: 20, channels: 3, background: '#e4650f' } })
      .png()
      .toBuffer()

  it('takes a picture into the image pipeline’s folder', async () => {
    const { status } = await upload('upload-good.png', await png())
    expect(status).toBe(200)
    expect(existsSync(join(dir, 'public/images/upload-good.png'))).toBe(true)
    const drawing = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>'
    expect((await upload('upload-good.svg', Buffer.from(drawing))).status).toBe(200)
  })

  it.each([
    ['notes.png', () => Buffer.from('not a picture'), /notes\.png is not an image/],
    ['notes.txt', () => Buffer.from('text'), /notes\.txt is not an image: expected svg, png/],
    [
      'huge.png',
      () => Buffer.alloc(6 * 1024 * 1024),
      /huge\.png is 6\.0 MB: images may be 5\.0 MB at most/,
    ],
    [
      'photo.png',
      () =>
        sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
          .jpeg()
          .toBuffer(),
      /photo\.png holds a jpeg image: name it \.jpg/,
    ],
    [
      'bad.svg',
      () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      /bad\.svg contains script/,
    ],
    [
      'fake.svg',
      () => Buffer.from('<html><body>hi</body></html>'),
      /fake\.svg is not an SVG drawing/,
    ],
  ] as const)('refuses %s, saying why, and writes nothing', async (name, data, message) => {
    const { status, body } = await upload(name, await data())
    expect(status).toBe(400)
    expect((body as { error: string }).error).toMatch(message)
    expect(existsSync(join(dir, 'public/images', name))).toBe(false)
  })
})

describe('CMS local backend: an entry with a new image', () => {
  const post = (src: string) =>
    `---\ntitle: A post with a picture\ndescription: A post.\ndate: 2026-01-02\nauthor: Editor\nlanguage: en\ncategory: general\ncover:\n  src: ${src}\n  alt: An orange field\n---\nText.\n`

  it('is saved with the image it names, in one save', async () => {
    // The generated store has no blog: a category for the post.
    await mkdir(join(contentDir, 'blog/categories'), { recursive: true })
    await writeFile(
      join(contentDir, 'blog/categories/general.yaml'),
      stringify({
        name: { en: 'General', de: 'Allgemein' },
        description: { en: 'All kinds of posts.', de: 'Beiträge aller Art.' },
      }),
    )
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .png()
      .toBuffer()
    const { status, body } = await call('persistEntry', {
      entry: {
        path: 'content/blogPost/a-post-with-a-picture.md',
        raw: post('/images/blog/new-cover.png'),
      },
      assets: [
        {
          path: 'public/images/blog/new-cover.png',
          content: png.toString('base64'),
          encoding: 'base64',
        },
      ],
    })
    expect({ status, body }).toEqual({ status: 200, body: { message: 'entry persisted' } })
    expect(existsSync(join(dir, 'public/images/blog/new-cover.png'))).toBe(true)
  })

  it('refused, leaves no image behind', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .png()
      .toBuffer()
    const { status } = await call('persistEntry', {
      entry: {
        path: 'content/blogPost/a-broken-post.md',
        raw: post('/images/blog/other-cover.png').replace('category: general', 'category: nowhere'),
      },
      assets: [
        {
          path: 'public/images/blog/other-cover.png',
          content: png.toString('base64'),
          encoding: 'base64',
        },
      ],
    })
    expect(status).toBe(422)
    expect(existsSync(join(dir, 'public/images/blog/other-cover.png'))).toBe(false)
  })
})
