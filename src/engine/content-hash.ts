import { createHash } from 'node:crypto'

/** A short, stable content hash. */
export function contentHash(data: string, length = 16): string {
  return createHash('sha256').update(data).digest('hex').slice(0, length)
}
