import type { ImageValue } from '../../../shared/images'
import styles from './styles.module.css'

export interface PictureProps {
  image: ImageValue
  /** How wide the image is shown, for the browser's choice of file: `(min-width: 60rem) 50vw, 100vw`. */
  sizes: string
  /** Images in the first screen load at once; the others when they come near. */
  priority?: boolean
  className?: string
}

/**
 * An image of the content. Raster images come as AVIF, WebP and JPEG/PNG at several widths;
 * a blurred preview holds their place and the image fades in over it once loaded (without
 * the fade under reduced motion). Width and height are always given, so nothing moves.
 */
export function Picture({ image, sizes, priority = false, className }: PictureProps) {
  const { responsive } = image
  const loading = priority ? 'eager' : 'lazy'
  if (!responsive) {
    return (
      <img
        className={className}
        src={image.src}
        alt={image.alt}
        width={image.width}
        height={image.height}
        loading={loading}
        decoding="async"
      />
    )
  }
  // Graphics with transparency would show the preview through them.
  const preview = responsive.src.endsWith('.png') ? undefined : responsive.placeholder
  return (
    <picture
      // A new image is a new element: the next page's picture must not inherit `data-loaded`.
      key={responsive.src}
      className={className ? `${styles.frame} ${className}` : styles.frame}
      style={preview ? { backgroundImage: `url("${preview}")` } : undefined}
    >
      {responsive.sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcset} sizes={sizes} />
      ))}
      <img
        className={styles.image}
        src={responsive.src}
        srcSet={responsive.srcset}
        sizes={sizes}
        alt={image.alt}
        width={responsive.width}
        height={responsive.height}
        loading={loading}
        decoding="async"
        // React 18 knows no `fetchPriority` and asks for the attribute's own spelling.
        {...{ fetchpriority: priority ? 'high' : undefined }}
        data-fade=""
      />
    </picture>
  )
}
