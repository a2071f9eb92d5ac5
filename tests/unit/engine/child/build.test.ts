import { readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateContent } from '../../../../bench/generate-content'
import { ContentValidationError } from '../../../../src/content/errors'
import { buildInChild } from '../../../../src/engine/child/build'
import { readBuildConfig } from '../../../../src/engine/config'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

/** The build's worker from its source, through tsx (the compiled one is the programs'). */
const WORKER = {
  script: resolve(import.meta.dirname, '../../../../src/engine/child/worker.ts'),
  execArgv: ['--import', 'tsx'],
}
let dir: string

beforeAll(async () => {
  dir = await temporaryFolder('child-build-')
  await generateContent(join(dir, 'content'), 120)
})

afterAll(async () => {
  await removeFolder(dir)
})

const configFor = (name: string) =>
  readBuildConfig({
    CONTENT_DIR: join(dir, 'content'),
    OUT_DIR: join(dir, name),
    BUILD_CACHE_DIR: join(dir, 'cache'),
    SITE_URL: 'https://bank.example',
  })

describe('a build in a process of its own', () => {
  it('writes the site and answers with its report', async () => {
    const config = configFor('dist')
    const report = await buildInChild(config, WORKER)
    expect(report.pages).toBeGreaterThan(120)
    expect(report.pagesOfFiles['en/pages/about.yaml']).toBe('/en/about/')
    const page = await readFile(join(config.outDir, 'en', 'about', 'index.html'), 'utf8')
    expect(page).toContain('<link rel="canonical" href="https://bank.example/en/about/">')
  }, 120_000)

  it("fails with the content store's problems, as the build in this process does", async () => {
    const file = join(dir, 'content', 'en', 'pages', 'about.yaml')
    const original = await readFile(file, 'utf8')
    await writeFile(file, original.replace(/^title: .*$/m, 'title: 42'))
    try {
      const config = configFor('dist-invalid')
      const here = await buildInChild(config, undefined).catch((error: unknown) => error)
      const apart = await buildInChild(config, WORKER).catch((error: unknown) => error)
      expect(here).toBeInstanceOf(ContentValidationError)
      expect(apart).toBeInstanceOf(ContentValidationError)
      expect((apart as ContentValidationError).problems).toEqual(
        (here as ContentValidationError).problems,
      )
      expect((apart as Error).message).toBe((here as Error).message)
    } finally {
      await writeFile(file, original)
    }
  }, 120_000)
})
