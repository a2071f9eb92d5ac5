import { mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { renderToStaticMarkup } from 'react-dom/server'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { ALL_COLLECTIONS } from '../../../../src/content/collections'
import { loadContent } from '../../../../src/content/load'
import type { SiteContent } from '../../../../src/content/site-content'
import {
  CARD_SIZE,
  imageFields,
  prepareImages,
  refuseFilesInGeneratedDirs,
  SITE_CARD,
  svgSize,
} from '../../../../src/engine/assets/content-images'
import { createPageData, createStaticQueries } from '../../../../src/engine/pages/page-data'
import { createRouteTable } from '../../../../src/engine/routes/route-table'
import type { ImageValue } from '../../../../src/shared/images'
import { Picture } from '../../../../src/site/components/picture'
import { addBlogPost, memorySource, pageFile, validDocuments } from '../../../fixtures/content'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

let root: string
let publicDir: string
let outDir: string
let content: SiteContent

const photo = { src: '/images/team/office.jpg', alt: 'The team at work in the Berlin office' }

beforeAll(async () => {
  root = await temporaryFolder('content-images-')
  publicDir = join(root, 'public')
  outDir = join(root, 'dist')
  await mkdir(join(publicDir, 'images/team'), { recursive: true })
  await mkdir(join(publicDir, 'images/blog'), { recursive: true })
  await writeFile(
    join(publicDir, photo.src),
    await sharp({ create: { width: 1400, height: 800, channels: 3, background: '#b34700' } })
      .jpeg()
      .toBuffer(),
  )
  const documents = validDocuments()
  addBlogPost(documents)
  const about = documents.get(pageFile('en', '/about/')) as { sections: unknown[] }
  about.sections = [
    { type: 'hero', heading: 'Who we are', image: photo },
    ...(about.sections ?? []),
  ]
  content = await loadContent(memorySource(documents), { collections: ALL_COLLECTIONS })
  for (const field of imageFields(content.entries.map((entry) => entry.data))) {
    if (field.src.endsWith('.svg'))
      await writeFile(
        join(publicDir, field.src),
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 420"><rect width="800" height="420" fill="#e4650f"/></svg>',
      )
  }
})
afterAll(async () => {
  await removeFolder(root)
})

describe('images of the content', () => {
  it('finds every image field, however deep it sits', () => {
    const found = imageFields({
      cover: { src: '/images/a.svg', alt: 'A' },
      sections: [{ items: [{ image: { src: '/images/b.jpg', alt: '' } }] }],
      link: { src: 'https://elsewhere.example/c.jpg', alt: 'not ours' },
    })
    expect(found.map((field) => field.src)).toEqual(['/images/a.svg', '/images/b.jpg'])
  })

  it('reads the size an SVG declares, from width and height or its view box', () => {
    expect(svgSize('<svg width="640" height="320px" viewBox="0 0 10 5">')).toEqual({
      width: 640,
      height: 320,
    })
    expect(svgSize('<svg xmlns="…" viewBox="0 0 1200 630">')).toEqual({ width: 1200, height: 630 })
    expect(svgSize('<svg width="100%">')).toBeUndefined()
  })

  it('gives raster images their variants, size and card, and SVG drawings a PNG card', async () => {
    const written = await prepareImages(content, { publicDir, outDir })
    expect(written.raster).toBe(1)
    await written.cardsWritten
    const [hero] = imageFields(
      content.entries.find((entry) => entry.name === 'about' && entry.language === 'en')?.data,
    ) as ImageValue[]
    expect(hero?.width).toBe(1280)
    expect(hero?.height).toBe(731)
    expect(hero?.responsive?.sources.map((source) => source.type)).toEqual([
      'image/avif',
      'image/webp',
    ])
    expect(hero?.card).toBe(hero?.responsive?.src)
    const post = content.entries.find((entry) => entry.collection === 'blogPost')
    const cover = post?.data.cover as ImageValue
    expect(cover).toMatchObject({ width: 800, height: 420 })
    // The page shows a copy under a name that hashes its content, so it can be cached for good.
    expect(cover.src).toMatch(/^\/images\/_\/[\w-]+-[0-9a-f]{8}\.svg$/)
    expect(await readFile(join(outDir, cover.src), 'utf8')).toContain('<svg')
    expect(cover.card).toMatch(/^\/images\/cards\/.+\.png$/)
    for (const card of [cover.card as string, SITE_CARD]) {
      const metadata = await sharp(join(outDir, card)).metadata()
      expect([metadata.format, metadata.width, metadata.height]).toEqual([
        'png',
        CARD_SIZE.width,
        CARD_SIZE.height,
      ])
    }
  })

  it('draws the site card when the site’s tree has no drawn one (an older site repository)', async () => {
    const elsewhere = join(root, 'dist-without-card')
    // The content's own images were prepared (and renamed) by the tests before: none here.
    const written = await prepareImages(
      { ...content, entries: [] },
      {
        publicDir,
        outDir: elsewhere,
        siteCard: join(root, 'no-such-site-card.png'),
      },
    )
    await written.cardsWritten
    const card = await sharp(join(elsewhere, 'images/cards/site.png')).metadata()
    expect([card.format, card.width, card.height]).toEqual(['png', 1200, 630])
  })

  it('names the image a shared link shows: the page’s own, else the site card', async () => {
    const routes = createRouteTable(content)
    const queries = createStaticQueries(content)
    const head = (path: string) => {
      const page = routes.find((route) => route.route.path === path)
      if (!page) throw new Error(`no page ${path}`)
      return createPageData(page, queries, content, 'https://bank.example').result.head
    }
    expect(head('/en/about/').image).toMatchObject({
      url: expect.stringMatching(/^https:\/\/bank\.example\/images\/_\/office-\w{8}-1280\.jpg$/),
      width: 1280,
      alt: photo.alt,
    })
    expect(head('/en/imprint/').image).toEqual({
      url: `https://bank.example${SITE_CARD}`,
      ...CARD_SIZE,
      alt: content.settings.brandName,
    })
    const post = routes.find((route) => route.route.template === 'blog-post')
    expect(head(post?.route.path ?? '').image.url).toMatch(/\/images\/cards\/.+\.png$/)
  })
})

describe('Picture', () => {
  it('offers AVIF and WebP before the fallback, with sizes, dimensions, lazy loading and a preview', async () => {
    const [field] = imageFields(
      content.entries.find((entry) => entry.name === 'about' && entry.language === 'en')?.data,
    ) as ImageValue[]
    const html = renderToStaticMarkup(
      <Picture image={field as ImageValue} sizes="(min-width: 60rem) 50vw, 100vw" />,
    )
    const tags = (name: string) => html.match(new RegExp(`<${name}\\b[^>]*>`, 'g')) ?? []
    const attribute = (tag: string, name: string) =>
      new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1]
    const sources = tags('source')
    expect(sources.map((source) => attribute(source, 'type'))).toEqual(['image/avif', 'image/webp'])
    for (const source of sources) {
      expect(attribute(source, 'sizes')).toBe('(min-width: 60rem) 50vw, 100vw')
      expect(attribute(source, 'srcSet')).toMatch(/ 320w, .+ 1280w$/)
    }
    const [image = ''] = tags('img')
    expect(attribute(image, 'alt')).toBe(photo.alt)
    expect([attribute(image, 'width'), attribute(image, 'height')]).toEqual(['1280', '731'])
    expect(attribute(image, 'loading')).toBe('lazy')
    expect(attribute(image, 'data-fade')).toBe('')
    expect(attribute(tags('picture')[0] ?? '', 'style')).toContain('data:image/webp;base64,')
    for (const file of (attribute(image, 'srcSet') ?? '').split(', ')) {
      expect((await stat(join(outDir, file.split(' ')[0] as string))).size).toBeGreaterThan(0)
    }
    expect(attribute(image, 'fetchpriority')).toBeUndefined()
    // In the first screen: loaded at once and ahead of other images.
    const first = renderToStaticMarkup(
      <Picture image={field as ImageValue} sizes="100vw" priority />,
    ).match(/<img\b[^>]*>/)?.[0]
    expect(attribute(first ?? '', 'loading')).toBe('eager')
    expect(attribute(first ?? '', 'fetchpriority')).toBe('high')
  })

  it('shows a drawing as it is, with its size, and loads first-screen images at once', () => {
    const html = renderToStaticMarkup(
      <Picture
        image={{ src: '/images/a.svg', alt: 'A drawing', width: 800, height: 420 }}
        sizes="100vw"
        priority
      />,
    )
    expect(html).toContain(
      '<img src="/images/a.svg" alt="A drawing" width="800" height="420" loading="eager" decoding="async"/>',
    )
  })
})

describe('files of public/ where the build writes its own', () => {
  it('stop the build, each named: copied, they would replace a generated card or copy', async () => {
    const dir = await temporaryFolder('generated-dirs-')
    onTestFinished(() => removeFolder(dir))
    await mkdir(join(dir, 'images/blog'), { recursive: true })
    await writeFile(join(dir, 'images/blog/cover.svg'), '<svg/>')
    await expect(refuseFilesInGeneratedDirs(dir)).resolves.toBeUndefined()
    await mkdir(join(dir, 'images/cards'), { recursive: true })
    await mkdir(join(dir, 'images/_/deeper'), { recursive: true })
    await writeFile(join(dir, 'images/cards/blog-cover.png'), 'x')
    await writeFile(join(dir, 'images/_/deeper/copy.svg'), 'x')
    await expect(refuseFilesInGeneratedDirs(dir)).rejects.toThrow(
      /would replace generated ones on the site; move or remove them: public\/images\/_\/deeper\/copy\.svg, public\/images\/cards\/blog-cover\.png$/,
    )
  })
})
