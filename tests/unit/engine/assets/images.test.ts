import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { drawingProblem } from '../../../../src/cms/svg'
import { openCardRenderer } from '../../../../src/engine/assets/card-renderer'
import {
  processImages,
  rasterizeSvgCard,
  rasterizeSvgCards,
  widthsFor,
} from '../../../../src/engine/assets/images'
import type { ResponsiveImage } from '../../../../src/shared/images'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

let root: string
let sourceDir: string
beforeAll(async () => {
  root = await temporaryFolder('images-')
  sourceDir = join(root, 'public')
  await mkdir(join(sourceDir, 'images/blog'), { recursive: true })
  await writeFile(join(sourceDir, 'images/photo.jpg'), await gradient(1600, 900, '#e4650f'))
  await writeFile(
    join(sourceDir, 'images/logo.png'),
    await translucent(500, 300, { r: 0, g: 90, b: 200 }, 'png'),
  )
  await writeFile(join(sourceDir, 'images/blog/cover.svg'), coverSvg(800, 400))
})
afterAll(async () => {
  await removeFolder(root)
})

/** A photo-like JPEG: a diagonal gradient, drawn by librsvg. */
/** A half-transparent image of one colour: a graphic with an alpha channel. */
function translucent(
  width: number,
  height: number,
  colour: { r: number; g: number; b: number },
  format: 'png' | 'webp',
): Promise<Buffer> {
  const background = { ...colour, alpha: 0.5 }
  return sharp({ create: { width, height, channels: 4, background } })
    .toFormat(format)
    .toBuffer()
}

async function gradient(width: number, height: number, colour: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x2="1" y2="1">
      <stop offset="0" stop-color="${colour}"/><stop offset="1" stop-color="#102040"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/></svg>`
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer()
}

function coverSvg(width: number, height: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}">
    <rect width="${width}" height="${height}" fill="#e4650f"/>
    <circle cx="${width / 2}" cy="${height / 2}" r="${height / 3}" fill="#fff"/></svg>`
}

/** Every URL a `<picture>` of the image may load, with its format and width. */
function variantsOf(image: ResponsiveImage): { url: string; format: string; width: number }[] {
  const parse = (srcset: string, format: string) =>
    srcset.split(', ').map((candidate) => {
      const [url = '', width = ''] = candidate.split(' ')
      return { url, format, width: Number.parseInt(width, 10) }
    })
  return [
    ...image.sources.flatMap((source) =>
      parse(source.srcset, source.type === 'image/avif' ? 'heif' : 'webp'),
    ),
    ...parse(image.srcset, image.src.endsWith('.png') ? 'png' : 'jpeg'),
  ]
}

/** Every file below `dir` with its modification time. */
async function filesWithTimes(dir: string): Promise<Map<string, number>> {
  const names = await readdir(dir, { recursive: true })
  const files = new Map<string, number>()
  for (const name of names) {
    const info = await stat(join(dir, name))
    if (info.isFile()) files.set(name, info.mtimeMs)
  }
  return files
}

describe('image widths', () => {
  it('takes the listed widths a source can fill, or its own width when it is narrower', () => {
    expect(widthsFor(1600)).toEqual([320, 640, 960, 1280])
    expect(widthsFor(2400)).toEqual([320, 640, 960, 1280, 1920])
    expect(widthsFor(320)).toEqual([320])
    expect(widthsFor(200)).toEqual([200])
    expect(widthsFor(700, [640, 320, 640, 1000])).toEqual([320, 640])
  })
})

describe('image pipeline', () => {
  it('writes AVIF, WebP and JPEG at every width and describes them for a <picture>', async () => {
    const outDir = join(root, 'out-photo')
    const images = await processImages(
      [{ src: '/images/photo.jpg' }, { src: '/images/photo.jpg' }],
      { sourceDir, outDir, widths: [320, 640, 2000] },
    )
    expect([...images.keys()]).toEqual(['/images/photo.jpg'])
    const image = images.get('/images/photo.jpg') as ResponsiveImage
    expect(image.src).toMatch(/^\/images\/_\/photo-[0-9a-f]{8}-640\.jpg$/)
    expect({ width: image.width, height: image.height }).toEqual({ width: 640, height: 360 })
    expect(image.sources.map((source) => source.type)).toEqual(['image/avif', 'image/webp'])
    expect(image.srcset).toBe(`${image.src.replace('-640.', '-320.')} 320w, ${image.src} 640w`)

    const variants = variantsOf(image)
    expect(variants.map(({ format, width }) => `${format} ${width}`)).toEqual([
      'heif 320',
      'heif 640',
      'webp 320',
      'webp 640',
      'jpeg 320',
      'jpeg 640',
    ])
    for (const { url, format, width } of variants) {
      const metadata = await sharp(join(outDir, url)).metadata()
      expect({ url, format: metadata.format, width: metadata.width }).toEqual({
        url,
        format,
        width,
      })
      expect(metadata.height).toBe((width * 9) / 16)
    }
    expect(await readdir(join(outDir, 'images/_'))).toHaveLength(6)
  })

  it('gives a tiny blurred WebP placeholder as a data URI', async () => {
    const images = await processImages([{ src: '/images/photo.jpg' }], {
      sourceDir,
      outDir: join(root, 'out-placeholder'),
      widths: [320],
    })
    const { placeholder } = images.get('/images/photo.jpg') as ResponsiveImage
    expect(placeholder).toMatch(/^data:image\/webp;base64,[A-Za-z0-9+/]+=*$/)
    expect(placeholder.length).toBeLessThanOrEqual(1024)
    const preview = Buffer.from(placeholder.split(',')[1] as string, 'base64')
    expect(await sharp(preview).metadata()).toMatchObject({ format: 'webp', width: 16, height: 9 })
  })

  it('keeps PNG as the fallback of PNG sources, with their transparency in every format', async () => {
    const outDir = join(root, 'out-logo')
    const images = await processImages([{ src: '/images/logo.png' }], {
      sourceDir,
      outDir,
      widths: [320, 640],
    })
    const image = images.get('/images/logo.png') as ResponsiveImage
    expect(image.src).toMatch(/^\/images\/_\/logo-[0-9a-f]{8}-320\.png$/)
    expect({ width: image.width, height: image.height }).toEqual({ width: 320, height: 192 })
    for (const { url, format } of variantsOf(image)) {
      const metadata = await sharp(join(outDir, url)).metadata()
      expect({ url, format: metadata.format, hasAlpha: metadata.hasAlpha }).toEqual({
        url,
        format,
        hasAlpha: true,
      })
    }
  })

  it('gives a transparent WebP a PNG fallback, so no format loses the transparency', async () => {
    await writeFile(
      join(sourceDir, 'images/badge.webp'),
      await translucent(400, 400, { r: 228, g: 101, b: 15 }, 'webp'),
    )
    const outDir = join(root, 'out-badge')
    const images = await processImages([{ src: '/images/badge.webp' }], {
      sourceDir,
      outDir,
      widths: [320],
    })
    const image = images.get('/images/badge.webp') as ResponsiveImage
    expect(image.src).toMatch(/-320\.png$/)
    for (const { url } of variantsOf(image))
      expect((await sharp(join(outDir, url)).metadata()).hasAlpha, url).toBe(true)
  })

  it('makes one variant at the source width of an image narrower than every listed width', async () => {
    await writeFile(join(sourceDir, 'images/small.jpg'), await gradient(200, 100, '#3366cc'))
    const images = await processImages([{ src: '/images/small.jpg' }], {
      sourceDir,
      outDir: join(root, 'out-small'),
    })
    const image = images.get('/images/small.jpg') as ResponsiveImage
    expect(image).toMatchObject({ width: 200, height: 100 })
    expect(variantsOf(image).map((variant) => variant.width)).toEqual([200, 200, 200])
  })

  it('leaves SVG images out: they are served as they are', async () => {
    const images = await processImages([{ src: '/images/blog/cover.svg' }], {
      sourceDir,
      outDir: join(root, 'out-svg'),
    })
    expect(images.size).toBe(0)
  })

  it('names a missing source in its error', async () => {
    await expect(
      processImages([{ src: '/images/photo.jpg' }, { src: '/images/missing.jpg' }], {
        sourceDir,
        outDir: join(root, 'out-missing'),
        widths: [320],
      }),
    ).rejects.toThrow('/images/missing.jpg not found')
    await writeFile(join(sourceDir, 'images/broken.jpg'), 'not a JPEG')
    await expect(
      processImages([{ src: '/images/broken.jpg' }], {
        sourceDir,
        outDir: join(root, 'out-broken'),
        widths: [320],
      }),
    ).rejects.toThrow('broken.jpg could not be processed')
  })

  it('re-encodes an entry a stopped build left incomplete into new files, never into those a site links', async () => {
    const cacheDir = join(root, 'cache-incomplete')
    const options = (outDir: string) => ({
      sourceDir,
      outDir: join(root, outDir),
      cacheDir,
      widths: [320],
    })
    await writeFile(join(sourceDir, 'images/kept.jpg'), await gradient(500, 250, '#1b6fd8'))
    const requests = [{ src: '/images/kept.jpg' }]
    const first = await processImages(requests, options('out-linked'))
    const url = first.get('/images/kept.jpg')?.src ?? ''
    const served = join(root, 'out-linked', url)
    const before = await readFile(served)
    // A build stopped before the entry was complete: its list of variants is missing.
    const [entry] = await readdir(join(cacheDir, 'images'))
    await rm(join(cacheDir, 'images', entry ?? '', 'variants.json'))

    await processImages(requests, options('out-again'))
    // The first site's file is its own still: the same bytes, and not the new site's file.
    expect((await readFile(served)).equals(before)).toBe(true)
    const [a, b] = await Promise.all([stat(served), stat(join(root, 'out-again', url))])
    expect(b.ino).not.toBe(a.ino)
  })

  it('copies unchanged images from the cache without loading sharp, and renames changed ones', async () => {
    const cacheDir = join(root, 'cache')
    const options = (outDir: string) => ({ sourceDir, outDir: join(root, outDir), cacheDir })
    await writeFile(join(sourceDir, 'images/hero.jpg'), await gradient(700, 350, '#e4650f'))
    const requests = [{ src: '/images/hero.jpg' }, { src: '/images/logo.png' }]
    const first = await processImages(requests, { ...options('out-1'), widths: [320, 640] })
    const cached = await filesWithTimes(join(cacheDir, 'images'))
    expect(cached.size).toBeGreaterThan(0)

    // A build with unchanged sources must not even load the encoder.
    vi.resetModules()
    vi.doMock('sharp', () => {
      throw new Error('sharp was loaded')
    })
    try {
      const fresh = await import('../../../../src/engine/assets/images')
      const second = await fresh.processImages(requests, {
        ...options('out-2'),
        widths: [320, 640],
      })
      expect(second).toEqual(first)
    } finally {
      vi.doUnmock('sharp')
    }
    expect(await filesWithTimes(join(cacheDir, 'images'))).toEqual(cached)
    for (const image of first.values()) {
      for (const { url } of variantsOf(image)) {
        const [before, after] = await Promise.all([
          readFile(join(root, 'out-1', url)),
          readFile(join(root, 'out-2', url)),
        ])
        expect(after.equals(before), url).toBe(true)
      }
    }

    await writeFile(join(sourceDir, 'images/hero.jpg'), await gradient(700, 350, '#00aa55'))
    const third = await processImages(requests, { ...options('out-3'), widths: [320, 640] })
    const hero = (images: Map<string, ResponsiveImage>) => images.get('/images/hero.jpg')?.src
    expect(hero(third)).toMatch(/^\/images\/_\/hero-[0-9a-f]{8}-640\.jpg$/)
    expect(hero(third)).not.toBe(hero(first))
    expect(third.get('/images/logo.png')).toEqual(first.get('/images/logo.png'))
    // The old hero's entry is gone; the logo's is kept as it was.
    expect(await readdir(join(cacheDir, 'images'))).toHaveLength(2)
    const after = await filesWithTimes(join(cacheDir, 'images'))
    const logoFiles = [...cached].filter(([name]) => after.get(name) === cached.get(name))
    expect(logoFiles.length).toBeGreaterThan(0)
    expect(logoFiles.length).toBeLessThan(cached.size)
  })
})

describe('SVG cards', () => {
  it('renders an SVG cover to a 1200×630 PNG for og:image, cropped to fill it', async () => {
    const outFile = join(root, 'out-card/og/cover.png')
    await rasterizeSvgCard(join(sourceDir, 'images/blog/cover.svg'), outFile)
    const metadata = await sharp(outFile).metadata()
    expect(metadata).toMatchObject({ format: 'png', width: 1200, height: 630 })
    // The orange background fills the card edge to edge.
    const { data } = await sharp(outFile)
      .extract({ left: 0, top: 0, width: 1, height: 1 })
      .raw()
      .toBuffer({ resolveWithObject: true })
    expect([...data.subarray(0, 3)]).toEqual([0xe4, 0x65, 0x0f])
  })

  it('reuses cached cards and drops the ones a build no longer has', async () => {
    const cacheDir = join(root, 'card-cache')
    const svgFile = join(sourceDir, 'images/blog/cover.svg')
    const other = join(root, 'other.svg')
    await writeFile(other, coverSvg(400, 400))
    await rasterizeSvgCards(
      [
        { svgFile, outFile: join(root, 'cards-1/a.png') },
        { svgFile: other, outFile: join(root, 'cards-1/b.png') },
      ],
      { cacheDir },
    )
    const cached = await filesWithTimes(join(cacheDir, 'cards'))
    expect(cached.size).toBe(2)

    await rasterizeSvgCards([{ svgFile, outFile: join(root, 'cards-2/a.png') }], { cacheDir })
    const [before, after] = await Promise.all([
      readFile(join(root, 'cards-1/a.png')),
      readFile(join(root, 'cards-2/a.png')),
    ])
    expect(after.equals(before)).toBe(true)
    const kept = await filesWithTimes(join(cacheDir, 'cards'))
    expect(kept.size).toBe(1)
    expect([...kept].every(([name, time]) => cached.get(name) === time)).toBe(true)
  })

  it('stops a drawing that passes the check but draws too slowly, and draws the next card', async () => {
    // Eight shapes through a blur and turbulence: within the check's limits, four seconds to
    // draw on two cores (the limit here is 0.4 s).
    const shapes = Array.from(
      { length: 8 },
      (_, index) => `<rect x="${index}" width="1200" height="630" filter="url(#f)"/>`,
    ).join('')
    const slow = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630"><defs><filter id="f"><feGaussianBlur stdDeviation="100"/><feTurbulence baseFrequency="0.9" numOctaves="4"/></filter></defs>${shapes}</svg>`
    expect(await drawingProblem(Buffer.from(slow))).toBeUndefined()
    const svgFile = join(root, 'slow.svg')
    await writeFile(svgFile, slow)
    const renderer = openCardRenderer({ timeLimitMs: 400 })
    try {
      const started = performance.now()
      await expect(
        rasterizeSvgCards(
          [{ svgFile, outFile: join(root, 'slow/card.png'), name: '/images/blog/slow.svg' }],
          { renderer },
        ),
      ).rejects.toThrow(
        'Image /images/blog/slow.svg: drawing its sharing card took longer than 0.4 s, so it was stopped; simplify the drawing (fewer filters, shapes or path data)',
      )
      // Stopped at its limit, not drawn to the end.
      expect(performance.now() - started).toBeLessThan(3000)
      // The renderer goes on with a process of its own for the next card.
      await rasterizeSvgCards(
        [{ svgFile: join(sourceDir, 'images/blog/cover.svg'), outFile: join(root, 'after/a.png') }],
        { renderer },
      )
    } finally {
      renderer.close()
    }
  })

  it('names a missing SVG in its error', async () => {
    const svgFile = join(root, 'nowhere.svg')
    await expect(rasterizeSvgCard(svgFile, join(root, 'card.png'))).rejects.toThrow(
      `${svgFile} not found`,
    )
  })
})
