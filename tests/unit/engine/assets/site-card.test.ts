/**
 * The site card in the repository (`src/engine/assets/site-card.png`) is the site card's drawing
 * (`siteCardSvg`) as the build's card renderer draws it: a change to the brand mark or colour
 * fails here until the file is drawn again (`UPDATE_SITE_CARD=1 npx vitest run
 * tests/unit/engine/assets/site-card.test.ts`).
 */
import { readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { openCardRenderer } from '../../../../src/engine/assets/card-renderer'
import {
  CARD_SIZE,
  SITE_CARD_SOURCE,
  siteCardSvg,
} from '../../../../src/engine/assets/content-images'
import { ROOT } from '../../../../src/engine/config'

const pixels = async (png: Buffer) => {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height, channels: info.channels }
}

describe('the site card in the repository', () => {
  it('is the site card drawn now, pixel for pixel (within a step of anti-aliasing)', async () => {
    const renderer = openCardRenderer()
    const drawn = await renderer
      .render(Buffer.from(siteCardSvg()), CARD_SIZE, 6, 'the site card')
      .finally(() => renderer.close())
    const file = join(ROOT, SITE_CARD_SOURCE)
    if (process.env.UPDATE_SITE_CARD === '1') {
      // A new file renamed over the old: builds link it into their sites, never written through.
      await writeFile(`${file}.new`, drawn)
      await rename(`${file}.new`, file)
    }
    const kept = await readFile(file).catch(() => Buffer.from(''))
    expect(
      kept.length,
      `${SITE_CARD_SOURCE} is missing: draw it with UPDATE_SITE_CARD=1`,
    ).toBeGreaterThan(0)
    const [now, stored] = await Promise.all([pixels(drawn), pixels(kept)])
    expect({ ...stored, data: undefined }).toEqual({ ...now, data: undefined })
    // Another platform's librsvg may round an edge's anti-aliasing a step apart; a changed mark
    // or colour moves thousands of pixels far more.
    let farthest = 0
    for (let index = 0; index < now.data.length; index++) {
      farthest = Math.max(farthest, Math.abs((now.data[index] ?? 0) - (stored.data[index] ?? 0)))
    }
    expect(
      farthest <= 4,
      `${SITE_CARD_SOURCE} is not the site card drawn now: draw it again with UPDATE_SITE_CARD=1 npx vitest run tests/unit/engine/assets/site-card.test.ts`,
    ).toBe(true)
  })
})
