/**
 * What the build hands to components for one raster image. Imported by browser code: no Node.
 */

// One value for the fade, kept with the contract's other numbers (docs/runtime.md, "Numbers").
export { IMAGE_FADE_MS } from './constants'

/**
 * Where the build writes images under names that hash their content (variants of raster
 * images, copies of drawings): a file there never changes, so it may be cached for a year.
 */
export const HASHED_IMAGES_DIR = '/images/_'

/** Where the build draws the PNG cards social networks show for shared pages. */
export const CARD_DIR = '/images/cards'

/**
 * The folders under `/images/` that the build writes itself. A file of `public/` there would
 * be served in place of the generated one (a card, say, for a page nobody changed), so neither
 * an editor's upload nor a file in the repository may be there.
 */
export const GENERATED_IMAGE_DIRS = [HASHED_IMAGES_DIR, CARD_DIR] as const

/**
 * The generated folder a site path (`/images/…`) is in, or `undefined`. Compared without regard
 * to case, as some hosts and file systems do.
 */
export function generatedImageDirOf(sitePath: string): string | undefined {
  const path = sitePath.toLowerCase()
  return GENERATED_IMAGE_DIRS.find((dir) => path.startsWith(`${dir}/`))
}

/** The modern formats a `<picture>` offers before its fallback, in order of preference. */
export type ResponsiveImageType = 'image/avif' | 'image/webp'

export interface ResponsiveImage {
  /** Fallback URL (JPEG, or PNG when the source was a PNG) at the largest width. */
  src: string
  /** Intrinsic size of the largest variant, so the layout reserves its space. */
  width: number
  height: number
  /** One `<source>` per modern format, AVIF first. */
  sources: { type: ResponsiveImageType; srcset: string }[]
  /** The fallback format at every width: `url 320w, url 640w, …`. */
  srcset: string
  /** `data:image/webp;base64,…`: a tiny blurred preview shown until the image has loaded. */
  placeholder: string
}

/**
 * An image field of the content (`{ src, alt }`) as the build hands it to components: with its
 * intrinsic size (no layout shift), its responsive variants when it is a raster image, and the
 * raster card social networks show when the page is shared.
 */
export interface ImageValue {
  src: string
  alt: string
  width?: number
  height?: number
  responsive?: ResponsiveImage
  /** A PNG or JPEG for `og:image` (SVG drawings are rendered to a 1200 × 630 card). */
  card?: string
}
