/**
 * Precompresses the long-lived text files (bundles, styles, manifests, the worker) with
 * Brotli and gzip at their highest levels, so servers and CDNs can send them as they are.
 * HTML and page data change with every content edit and are compressed by the server.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'

const brotli = promisify(brotliCompress)
const gz = promisify(gzip)

export const PRECOMPRESSED = /\.(js|css|svg|webmanifest)$/
/** Below this size compression saves less than the headers it costs. */
const MIN_BYTES = 1024

export async function precompress(files: string[]): Promise<number> {
  let written = 0
  await Promise.all(
    files.map(async (file) => {
      const data = await readFile(file)
      if (data.length < MIN_BYTES) return
      const [br, gzipped] = await Promise.all([
        brotli(data, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        }),
        gz(data, { level: 9 }),
      ])
      await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gzipped)])
      written += 1
    }),
  )
  return written
}
