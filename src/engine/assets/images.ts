/**
 * The build-time image pipeline: responsive AVIF, WebP and JPEG/PNG variants of the content's
 * raster images, and PNG cards of SVG covers for `og:image` (social networks do not take SVG).
 */
import { createHash, randomUUID } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { basename, dirname, extname, join, relative, resolve } from 'node:path'
import type { Sharp as SharpImage } from 'sharp'
import { HASHED_IMAGES_DIR, type ResponsiveImage } from '../../shared/images'
import { slugify } from '../../shared/slug'
import { placeFile } from '../cache/place-file'
import { type CardRenderer, CardTimeLimitError, openCardRenderer } from './card-renderer'

export interface ImageRequest {
  /** As content names it: `/images/…` below the source directory. */
  src: string
}

export interface ImageOptions {
  /** Where `src` paths point into: the project's `public/`. */
  sourceDir: string
  outDir: string
  /** Where variants of earlier builds are kept, by a hash of source and settings. */
  cacheDir?: string
  widths?: number[]
}

export const DEFAULT_WIDTHS = [320, 640, 960, 1280, 1920]
/** Variants are named by content, so this folder can be served as immutable. */
export const IMAGE_OUT_DIR = HASHED_IMAGES_DIR

/** Raise when the output changes in a way the settings do not show: renames every variant. */
const PIPELINE_VERSION = 2
const SETTINGS = {
  avif: { quality: 50, effort: 3 },
  webp: { quality: 75, effort: 4 },
  jpeg: { quality: 78, mozjpeg: true },
  // Lossless: PNG sources are graphics and screenshots, where palette quantisation shows.
  // Adaptive filtering took twice the time for larger files on the sharing cards (15 cards:
  // 1.07 s and 22 KB each with it, 0.46 s and 20 KB without).
  png: { compressionLevel: 9 },
  // Sharing cards are fetched by social networks' crawlers, not by visitors: drawn at level
  // 6, 15 cards took 0.13 s instead of 0.46 s, at 33 KB instead of 20 KB each.
  card: { compressionLevel: 6 },
  placeholder: { size: 16, sigma: 1, quality: 40 },
}
/** Images encoded at a time; sharp's threads are shared out between them. */
const PARALLEL_IMAGES = 2
/** Sources hashed or copied from the cache at a time: this is only file I/O. */
const PARALLEL_FILES = 8

const RASTER_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.webp', '.avif'])
const MODERN = [
  { ext: 'avif', type: 'image/avif' },
  { ext: 'webp', type: 'image/webp' },
] as const

type Fallback = 'jpg' | 'png'

/** What is kept beside the cached variants, so a cache hit needs no decoding at all. */
interface Variants {
  width: number
  height: number
  widths: number[]
  fallback: Fallback
  placeholder: string
}

/** The widths made of a source: the listed ones it can fill, or its own when it is narrower. */
export function widthsFor(sourceWidth: number, widths: number[] = DEFAULT_WIDTHS): number[] {
  const fitting = [...new Set(widths)]
    .filter((width) => Number.isInteger(width) && width > 0 && width <= sourceWidth)
    .sort((a, b) => a - b)
  return fitting.length > 0 ? fitting : [sourceWidth]
}

/**
 * Writes the variants of every requested raster image under `outDir` and returns, by `src`,
 * what a component needs to show it. SVG sources are left out: they are served as they are.
 * A source whose bytes are unchanged since an earlier build is copied from the cache; sharp is
 * only loaded when something has to be encoded. Call it once per build with every image: cache
 * entries it was not asked for are removed.
 */
export async function processImages(
  requests: ImageRequest[],
  options: ImageOptions,
): Promise<Map<string, ResponsiveImage>> {
  const widths = options.widths ?? DEFAULT_WIDTHS
  // Names hash the bytes and the encoding, not the widths: a variant keeps its URL (and the
  // browsers' cached copy) when the list of widths changes. The cache entry also hashes them.
  const encoding = JSON.stringify({ PIPELINE_VERSION, SETTINGS })
  const entryOf = (key: string) => hashOf(JSON.stringify(widths), Buffer.from(key))
  const sources = [...new Set(requests.map((request) => request.src))].filter(
    (src) => extname(src).toLowerCase() !== '.svg',
  )
  const cacheDir = options.cacheDir ? join(options.cacheDir, 'images') : undefined
  if (cacheDir) await mkdir(cacheDir, { recursive: true })
  await mkdir(join(options.outDir, IMAGE_OUT_DIR), { recursive: true })

  // Sources with the same bytes are encoded once, whatever they are called.
  const files = limiter(PARALLEL_FILES)
  const byKey = new Map<string, string[]>()
  await Promise.all(
    sources.map((src) =>
      files(async () => {
        if (!RASTER_EXTENSIONS.has(extname(src).toLowerCase())) {
          throw new Error(`Image ${src}: not a PNG, JPEG, WebP, AVIF or SVG file`)
        }
        const bytes = await readSource(sourceFile(options.sourceDir, src), src)
        const key = hashOf(encoding, bytes)
        byKey.set(key, [...(byKey.get(key) ?? []), src])
      }),
    ),
  )

  const encoder = limiter(PARALLEL_IMAGES)
  const images = new Map<string, ResponsiveImage>()
  await Promise.all(
    [...byKey].map(([key, srcs]) =>
      files(async () => {
        // Sources with equal bytes and equal names share their files.
        const outputs = (width: number, ext: string) => [
          ...new Set(srcs.map((src) => join(options.outDir, urlOf(src, key, width, ext)))),
        ]
        const entry = cacheDir && join(cacheDir, entryOf(key))
        let variants = entry && (await copyCached(entry, outputs))
        if (!variants) {
          const first = srcs[0] as string
          const file = sourceFile(options.sourceDir, first)
          const bytes = await readSource(file, first)
          variants = await encoder(() => encode(bytes, file, widths, outputs, entry))
        }
        for (const src of srcs) images.set(src, responsive(src, key, variants))
      }),
    ),
  )
  if (cacheDir) await removeUnused(cacheDir, new Set([...byKey.keys()].map(entryOf)))
  // Back in the order of the requests, so callers and logs see a stable order.
  return new Map(sources.map((src) => [src, images.get(src) as ResponsiveImage]))
}

export interface SvgCard {
  svgFile: string
  outFile: string
  size?: { width: number; height: number }
  /** How errors name the drawing (`/images/blog/a.svg`); its file when absent. */
  name?: string
}

export interface CardOptions {
  cacheDir?: string
  /** Draws the cards (a process of its own, with a time limit each); one is opened if absent. */
  renderer?: CardRenderer
  /** The time limit of a renderer opened here (`CARD_TIME_LIMIT_MS`). */
  timeLimitMs?: number
}

/**
 * Renders an SVG (a blog cover) to a PNG of `size`, cropped to fill it, for `og:image`, in the
 * card renderer's process, within its time limit (`./card-renderer.ts`). Returns the name of
 * its cache entry, or undefined without a cache.
 */
export async function rasterizeSvgCard(
  svgFile: string,
  outFile: string,
  size = { width: 1200, height: 630 },
  options: CardOptions & { name?: string } = {},
): Promise<string | undefined> {
  const svg = await readSource(svgFile)
  const name = `${hashOf(JSON.stringify({ PIPELINE_VERSION, size, png: SETTINGS.card }), svg)}.png`
  const cacheDir = options.cacheDir && join(options.cacheDir, 'cards')
  await mkdir(dirname(outFile), { recursive: true })
  if (cacheDir && (await placeFile(join(cacheDir, name), outFile).then(ok, fail))) return name
  const renderer = options.renderer ?? openCardRenderer(rendererOptions(options))
  const png = await describeFailure(svgFile, () =>
    renderer.render(svg, size, SETTINGS.card.compressionLevel, options.name ?? svgFile),
  ).finally(() => {
    if (!options.renderer) renderer.close()
  })
  if (!cacheDir) {
    await writeFile(outFile, png)
    return undefined
  }
  await mkdir(cacheDir, { recursive: true })
  // Renamed into place: an interrupted build leaves no half-written card to be copied later.
  // A temporary name of its own: two drawings with the same bytes render side by side.
  const temporary = join(cacheDir, `${name}.${process.pid}-${randomUUID()}.tmp`)
  await writeFile(temporary, png)
  await rename(temporary, join(cacheDir, name))
  // One file, linked into the site: no second copy of its bytes, and no second inode.
  await placeFile(join(cacheDir, name), outFile)
  return name
}

/** The card renderer's settings: the time limit given, and the build's share of the cores. */
const rendererOptions = (options: CardOptions) => ({
  timeLimitMs: options.timeLimitMs,
  threads: Math.max(1, Math.floor(availableParallelism() / PARALLEL_IMAGES)),
})

/**
 * Renders every card (in one renderer process, started only if a card is not cached), then
 * drops cached cards the current build no longer has.
 */
export async function rasterizeSvgCards(
  cards: SvgCard[],
  options: CardOptions = {},
): Promise<void> {
  const run = limiter(PARALLEL_IMAGES)
  const renderer = options.renderer ?? openCardRenderer(rendererOptions(options))
  const used = await Promise.all(
    cards.map((card) =>
      run(() =>
        rasterizeSvgCard(card.svgFile, card.outFile, card.size, {
          ...options,
          renderer,
          name: card.name,
        }),
      ),
    ),
  ).finally(() => {
    if (!options.renderer) renderer.close()
  })
  if (options.cacheDir) {
    const cacheDir = join(options.cacheDir, 'cards')
    await mkdir(cacheDir, { recursive: true })
    await removeUnused(cacheDir, new Set(used.filter((name) => name !== undefined)))
  }
}

function urlOf(src: string, key: string, width: number, ext: string): string {
  const name = slugify(basename(src, extname(src))) || 'image'
  return `${IMAGE_OUT_DIR}/${name}-${key.slice(0, 8)}-${width}.${ext}`
}

function responsive(src: string, key: string, variants: Variants): ResponsiveImage {
  const srcset = (ext: string) =>
    variants.widths.map((width) => `${urlOf(src, key, width, ext)} ${width}w`).join(', ')
  return {
    src: urlOf(src, key, variants.width, variants.fallback),
    width: variants.width,
    height: variants.height,
    sources: MODERN.map(({ ext, type }) => ({ type, srcset: srcset(ext) })),
    srcset: srcset(variants.fallback),
    placeholder: variants.placeholder,
  }
}

type Outputs = (width: number, ext: string) => string[]

function extensionsOf(variants: Variants): string[] {
  return [...MODERN.map((format) => format.ext), variants.fallback]
}

/** Copies a complete cache entry to the outputs; undefined when there is none to copy. */
async function copyCached(entry: string, outputs: Outputs): Promise<Variants | undefined> {
  let variants: Variants
  try {
    variants = JSON.parse(await readFile(join(entry, 'variants.json'), 'utf8')) as Variants
  } catch {
    return undefined
  }
  const copies = variants.widths.flatMap((width) =>
    extensionsOf(variants).flatMap((ext) =>
      outputs(width, ext).map((file) => placeFile(join(entry, `${width}.${ext}`), file)),
    ),
  )
  const copied = await Promise.all(copies.map((copy) => copy.then(ok, fail)))
  return copied.every(Boolean) ? variants : undefined
}

async function encode(
  bytes: Buffer,
  file: string,
  widths: number[],
  outputs: Outputs,
  /** The cache entry to fill, if there is a cache. */
  entry: string | undefined,
): Promise<Variants> {
  const sharp = await loadSharp()
  if (entry) await mkdir(entry, { recursive: true })
  return describeFailure(file, async () => {
    // Photos carry their rotation in EXIF; the variants are turned upright instead.
    const image = sharp(bytes, { autoOrient: true })
    const { format, autoOrient, hasAlpha } = await image.metadata()
    // Transparency needs a fallback that keeps it (and no preview showing through).
    const fallback: Fallback = format === 'png' || hasAlpha ? 'png' : 'jpg'
    const sizes = widthsFor(autoOrient.width, widths)
    const { size, sigma, quality } = SETTINGS.placeholder
    const placeholder = await image
      .clone()
      .resize({ width: size, height: size, fit: 'inside' })
      .blur(sigma)
      .webp({ quality })
      .toBuffer()
    const variants: Variants = {
      width: 0,
      height: 0,
      widths: sizes,
      fallback,
      placeholder: `data:image/webp;base64,${placeholder.toString('base64')}`,
    }
    // One encoding at a time per image: the images running side by side use the other cores.
    for (const width of sizes) {
      for (const ext of extensionsOf(variants)) {
        const { data, info } = await encodeAs(image.clone().resize({ width }), ext, fallback)
        variants.width = info.width
        variants.height = info.height
        if (entry) {
          // Written once, into the cache entry, and linked where the site needs it.
          const cached = join(entry, `${width}.${ext}`)
          // A new file renamed over the old name, never written into: an entry left incomplete
          // by a stopped build may have files that sites already link.
          const temporary = `${cached}.${process.pid}-${randomUUID()}.tmp`
          await writeFile(temporary, data)
          await rename(temporary, cached)
          await Promise.all(outputs(width, ext).map((out) => placeFile(cached, out)))
        } else {
          await Promise.all(outputs(width, ext).map((out) => writeFile(out, data)))
        }
      }
    }
    // Written last: an entry without it (an interrupted build) is never taken as complete.
    if (entry) await writeFile(join(entry, 'variants.json'), JSON.stringify(variants))
    return variants
  })
}

function encodeAs(image: SharpImage, ext: string, fallback: Fallback) {
  switch (ext) {
    case 'avif':
      // 4:2:0 halves the colour planes of photos; PNG graphics keep crisp colour edges.
      return image
        .avif({ ...SETTINGS.avif, chromaSubsampling: fallback === 'png' ? '4:4:4' : '4:2:0' })
        .toBuffer({ resolveWithObject: true })
    case 'webp':
      return image.webp(SETTINGS.webp).toBuffer({ resolveWithObject: true })
    case 'png':
      return image.png(SETTINGS.png).toBuffer({ resolveWithObject: true })
    default:
      // Only sources without transparency come here (photos).
      return image
        .flatten({ background: '#ffffff' })
        .jpeg(SETTINGS.jpeg)
        .toBuffer({ resolveWithObject: true })
  }
}

type SharpConstructor = typeof import('sharp').default

let sharpModule: Promise<SharpConstructor> | undefined

/** sharp and libvips load only in builds that encode something. */
function loadSharp(): Promise<SharpConstructor> {
  sharpModule ??= import('sharp').then(({ default: sharp }) => {
    // Each image being encoded gets its share of the cores, so a small machine is not swamped.
    sharp.concurrency(Math.max(1, Math.floor(availableParallelism() / PARALLEL_IMAGES)))
    return sharp
  })
  return sharpModule
}

function sourceFile(sourceDir: string, src: string): string {
  const file = resolve(sourceDir, `.${src.startsWith('/') ? '' : '/'}${src}`)
  if (relative(resolve(sourceDir), file).startsWith('..')) {
    throw new Error(`Image ${src} is outside ${sourceDir}`)
  }
  return file
}

/** Reads a source; the error names it as content does (`src`) and where it was looked for. */
async function readSource(file: string, src?: string): Promise<Buffer> {
  try {
    return await readFile(file)
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : 'unreadable'
    throw new Error(src ? `Image ${src} ${reason}: ${file}` : `Image ${file} ${reason}`, {
      cause: error,
    })
  }
}

async function describeFailure<T>(file: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    // It names the drawing and says what to do already.
    if (error instanceof CardTimeLimitError)
      throw new Error(`Image ${error.message}`, { cause: error })
    throw new Error(`Image ${file} could not be processed: ${(error as Error).message}`, {
      cause: error,
    })
  }
}

function hashOf(settings: string, bytes: Uint8Array): string {
  return createHash('sha256').update(settings).update(bytes).digest('hex').slice(0, 32)
}

async function removeUnused(cacheDir: string, used: Set<string>): Promise<void> {
  const stale = (await readdir(cacheDir)).filter((name) => !used.has(name))
  await Promise.all(stale.map((name) => rm(join(cacheDir, name), { recursive: true, force: true })))
}

/** Runs at most `count` of the given tasks at a time. */
function limiter(count: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0
  const waiting: (() => void)[] = []
  return async (task) => {
    // A finishing task hands its slot straight to the next waiting one, so none slips in between.
    if (running < count) running++
    else await new Promise<void>((resume) => waiting.push(resume))
    try {
      return await task()
    } finally {
      const next = waiting.shift()
      if (next) next()
      else running--
    }
  }
}

const ok = () => true
const fail = () => false
