/**
 * Draws the sharing cards of SVG drawings in a process of its own, which `./card-renderer.ts`
 * starts and stops: librsvg cannot be interrupted once it draws, and a drawing's filters can
 * keep it busy for minutes, so a card that takes too long is stopped with its process.
 *
 * Compiled beside the programs (`scripts/run.mjs`), or run from its source by Node.js's type
 * stripping under the test runner: it imports nothing of the project's but types.
 */
import sharp from 'sharp'
import type { CardAnswer, CardJob } from './card-renderer'

// The threads libvips may use: the build's share of the cores, as its own images get.
sharp.concurrency(Math.max(1, Number(process.argv[2]) || 1))

process.on('message', async (job: CardJob) => {
  let answer: CardAnswer
  try {
    const svg = Buffer.from(job.svg)
    const drawn = await sharp(svg).metadata()
    // librsvg draws at 72 dpi: the density is scaled so the drawing covers the card at full
    // sharpness instead of being enlarged afterwards.
    const scale = Math.max(job.width / drawn.width, job.height / drawn.height)
    const png = await sharp(svg, { density: Math.max(1, Math.ceil(72 * scale)) })
      .resize({ width: job.width, height: job.height, fit: 'cover' })
      .png({ compressionLevel: job.compressionLevel })
      .toBuffer()
    answer = { id: job.id, png }
  } catch (error) {
    answer = { id: job.id, error: error instanceof Error ? error.message : String(error) }
  }
  process.send?.(answer)
})

// The build let go of it (or ended): nothing more will come.
process.on('disconnect', () => process.exit(0))

// Loaded: the time limits count from here, not from the start of a process.
process.send?.({ ready: true })
