/**
 * The content's images, prepared for the pages: every image field gets its intrinsic size;
 * raster images their AVIF, WebP and JPEG/PNG variants with a blurred placeholder; SVG drawings
 * a PNG card for sharing. Also the site's default sharing card.
 */
import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { basename, extname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { SiteContent } from '../../content/site-content'
import { BRAND_MARK, THEME_COLOR } from '../../shared/constants'
import {
  CARD_DIR,
  GENERATED_IMAGE_DIRS,
  generatedImageDirOf,
  HASHED_IMAGES_DIR,
  type ImageValue,
} from '../../shared/images'
import { slugify } from '../../shared/slug'
import { placeFile } from '../cache/place-file'
import { type Timeline, untimed } from '../timeline'
import { processImages, rasterizeSvgCards, type SvgCard } from './images'

/** The sharing card of pages without an image of their own. */
export const SITE_CARD = `${CARD_DIR}/site.png`
export const CARD_SIZE = { width: 1200, height: 630 }
/**
 * The site card drawn (`siteCardSvg`), kept in the repository beside this module: it is made of
 * the code's own constants, so drawing it in every fresh build cost a card process (Node.js and
 * libvips started, half a second of CPU) for the same bytes. A test draws it again and fails,
 * with the command that updates it, when the drawing changed (`site-card.test.ts`).
 */
export const SITE_CARD_SOURCE = 'src/engine/assets/site-card.png'

/** Every image field (`{ src, alt }` with `src` under /images/) anywhere in `value`. */
export function imageFields(value: unknown, found: ImageValue[] = []): ImageValue[] {
  if (Array.isArray(value)) {
    for (const item of value) imageFields(item, found)
    return found
  }
  if (typeof value !== 'object' || value === null) return found
  const record = value as Record<string, unknown>
  if (
    typeof record.src === 'string' &&
    record.src.startsWith('/images/') &&
    typeof record.alt === 'string'
  ) {
    found.push(record as unknown as ImageValue)
    return found
  }
  for (const child of Object.values(record)) imageFields(child, found)
  return found
}

/** The size an SVG declares (width and height, or its view box), in CSS pixels. */
export function svgSize(svg: string): { width: number; height: number } | undefined {
  const root = /<svg\b[^>]*>/i.exec(svg)?.[0]
  if (!root) return undefined
  const attribute = (name: string) =>
    new RegExp(`\\s${name}\\s*=\\s*["']\\s*([\\d.]+)(px)?\\s*["']`, 'i').exec(root)?.[1]
  const width = Number(attribute('width'))
  const height = Number(attribute('height'))
  if (width > 0 && height > 0) return { width, height }
  const box = /\sviewBox\s*=\s*["']([^"']+)["']/i
    .exec(root)?.[1]
    ?.trim()
    .split(/[\s,]+/)
  const [boxWidth, boxHeight] = [Number(box?.[2]), Number(box?.[3])]
  return boxWidth > 0 && boxHeight > 0 ? { width: boxWidth, height: boxHeight } : undefined
}

/**
 * Refuses a build whose `public/` holds files where the build writes its own (the sharing cards,
 * the hashed copies): copied to the site, such a file would replace a generated one, for pages
 * that never named it. Names every such file.
 */
export async function refuseFilesInGeneratedDirs(publicDir: string): Promise<void> {
  const files = await readdir(join(publicDir, 'images'), { recursive: true, withFileTypes: true })
    .then((found) =>
      found
        .filter((entry) => !entry.isDirectory())
        .map(
          (entry) =>
            `/${relative(publicDir, join(entry.parentPath, entry.name)).split(sep).join('/')}`,
        ),
    )
    .catch(() => [] as string[])
  const taken = files.filter((file) => generatedImageDirOf(file)).sort()
  if (taken.length === 0) return
  throw new Error(
    `public/ holds files where the build writes its own (${GENERATED_IMAGE_DIRS.map((dir) => `public${dir}/`).join(', ')}), which would replace generated ones on the site; move or remove them: ${taken.map((file) => `public${file}`).join(', ')}`,
  )
}

/** The default sharing card: the brand mark on the brand colour, without text to typeset. */
export function siteCardSvg(): string {
  const { size, radius, letter, dot } = BRAND_MARK
  const scale = 320 / size
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_SIZE.width}" height="${CARD_SIZE.height}" viewBox="0 0 ${CARD_SIZE.width} ${CARD_SIZE.height}"><rect width="100%" height="100%" fill="#1f1a17"/><circle cx="1080" cy="560" r="260" fill="${THEME_COLOR}" opacity="0.35"/><circle cx="120" cy="40" r="140" fill="${THEME_COLOR}" opacity="0.2"/><g transform="translate(440 155) scale(${scale})"><rect width="${size}" height="${size}" rx="${radius}" fill="${THEME_COLOR}"/><path d="${letter}" fill="#fff"/><circle cx="${dot.cx}" cy="${dot.cy}" r="${dot.r}" fill="#fff"/></g></svg>\n`
}

/** `/images/blog/a.svg` → `/images/cards/blog-a.png`: one card per drawing, named by its path. */
function cardOf(src: string): string {
  return `${CARD_DIR}/${src.slice('/images/'.length, -'.svg'.length).replaceAll('/', '-')}.png`
}

export interface PrepareOptions {
  /** The project's `public/`, where `/images/…` files live. */
  publicDir: string
  outDir: string
  cacheDir?: string
  timeline?: Pick<Timeline, 'measure'>
  /** The drawn site card (`SITE_CARD_SOURCE` of the site's root); this checkout's by default. */
  siteCard?: string
}

export interface PreparedImages {
  raster: number
  cards: number
  /**
   * Settles when every sharing card is drawn. Pages need only a card's address, which its
   * source names, so they are rendered meanwhile: drawing the cards from an empty cache takes
   * longer than rendering the site.
   */
  cardsWritten: Promise<void>
}

/**
 * Prepares every image field of the content in place and writes the variants under `outDir`;
 * the cards are drawn in the background (`cardsWritten`).
 */
export async function prepareImages(
  content: SiteContent,
  options: PrepareOptions,
): Promise<PreparedImages> {
  const fields = content.entries.flatMap((entry) => imageFields(entry.data))
  const isSvg = (field: ImageValue) => extname(field.src).toLowerCase() === '.svg'
  const raster = fields.filter((field) => !isSvg(field))
  const variants = await processImages(raster, {
    sourceDir: options.publicDir,
    outDir: options.outDir,
    cacheDir: options.cacheDir,
  })
  for (const field of raster) {
    const responsive = variants.get(field.src)
    if (!responsive) continue
    field.responsive = responsive
    field.width = responsive.width
    field.height = responsive.height
    field.card = responsive.src
  }

  await mkdir(join(options.outDir, CARD_DIR), { recursive: true })
  const cards: SvgCard[] = []
  // Linked, as the build's own files are: one inode for every build and release. A tree without
  // the file (a site repository older than it, built by a newer publishing service) has it
  // drawn, as every build did before.
  const kept = await placeFile(
    options.siteCard ?? fileURLToPath(new URL('./site-card.png', import.meta.url)),
    join(options.outDir, SITE_CARD),
  ).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false
      throw error
    },
  )
  if (!kept) {
    const drawing = join(options.cacheDir ?? options.outDir, 'site-card.svg')
    await writeFile(drawing, siteCardSvg())
    cards.push({ svgFile: drawing, outFile: join(options.outDir, SITE_CARD) })
  }
  // Drawings are copied under a name that hashes their content, so they can be cached for a
  // year like the raster variants; the page shows the copy. All are read and copied at once:
  // one after another, the waits for the disk added up on a busy machine.
  const svgs = new Map<string, Promise<{ text: string; url: string }>>()
  const copyOf = (src: string) => {
    let svg = svgs.get(src)
    if (!svg) {
      const file = join(options.publicDir, src)
      cards.push({ svgFile: file, outFile: join(options.outDir, cardOf(src)), name: src })
      svg = readFile(file, 'utf8').then(
        async (text) => {
          const hash = createHash('sha256').update(text).digest('hex').slice(0, 8)
          const url = `${HASHED_IMAGES_DIR}/${slugify(basename(src, '.svg')) || 'image'}-${hash}.svg`
          await writeFile(join(options.outDir, url), text)
          return { text, url }
        },
        (error: unknown) => {
          throw new Error(`Image ${src} not found: ${file}`, { cause: error })
        },
      )
      svgs.set(src, svg)
    }
    return svg
  }
  const copied = await Promise.allSettled(
    fields.filter(isSvg).map(async (field) => {
      const svg = await copyOf(field.src)
      const size = svgSize(svg.text)
      if (size) Object.assign(field, size)
      field.card = cardOf(field.src)
      field.src = svg.url
    }),
  )
  const failed = copied.find((result) => result.status === 'rejected')
  if (failed) throw (failed as PromiseRejectedResult).reason
  const { measure } = options.timeline ?? untimed
  const cardsWritten = measure('images: sharing cards', () =>
    rasterizeSvgCards(
      cards.map((card) => ({ ...card, size: CARD_SIZE })),
      { cacheDir: options.cacheDir },
    ),
  )
  // Awaited by the caller later; until then a failure must not count as unhandled.
  cardsWritten.catch(() => {})
  return { raster: variants.size, cards: cards.length, cardsWritten }
}
