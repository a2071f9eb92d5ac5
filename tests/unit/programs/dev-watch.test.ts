/**
 * The dev server's file watcher covers the code and the public files only: builds, caches and
 * the publishing service's data beside them are not walked at start nor reported when written.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createServer, type ViteDevServer } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { outsideTheCode } from '../../../src/engine/assets/vite-config'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

describe('outsideTheCode', () => {
  const ignored = outsideTheCode('/project')
  it('keeps the project folder itself, src/ and public/ with everything in them', () => {
    for (const path of [
      '/project',
      '/project/src',
      '/project/src/site/app.tsx',
      '/project/public/icon.png',
    ]) {
      expect(ignored(path), path).toBe(false)
    }
  })
  it('leaves out builds, caches, data, tests and folders that merely start like src', () => {
    for (const path of [
      '/project/dist/en/index.html',
      '/project/.cache/build/x.json',
      '/project/data/publishing/releases/1/index.html',
      '/project/tests/unit/a.test.ts',
      '/project/src-old/a.ts',
      '/project/package.json',
      '/elsewhere/src/a.ts',
    ]) {
      expect(ignored(path), path).toBe(true)
    }
  })
  it('reads relative paths against the project folder', () => {
    const relative = outsideTheCode(process.cwd())
    expect(relative('src/shared/paths.ts')).toBe(false)
    expect(relative('dist/index.html')).toBe(true)
  })
})

describe("Vite's watcher with it", () => {
  let root: string
  let vite: ViteDevServer
  beforeAll(async () => {
    root = await temporaryFolder('dev-watch-')
    for (const folder of ['src', 'public', 'dist', '.cache']) await mkdir(join(root, folder))
    for (const file of ['src/a.ts', 'public/a.txt', 'dist/a.html', '.cache/a.json']) {
      await writeFile(join(root, file), 'first')
    }
    vite = await createServer({
      configFile: false,
      root,
      logLevel: 'silent',
      server: { middlewareMode: true, hmr: false, watch: { ignored: outsideTheCode(root) } },
    })
    // Ready once it reports a change to the code (its 'ready' may come before one listens).
    let seen = false
    const onChange = () => {
      seen = true
    }
    vite.watcher.on('change', onChange)
    for (let attempt = 0; !seen && attempt < 100; attempt++) {
      await writeFile(join(root, 'src/a.ts'), `warming ${attempt}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    vite.watcher.off('change', onChange)
  })
  afterAll(async () => {
    await vite?.close()
    await removeFolder(root)
  })

  it('reports a change to the code and the public files, and none to a build or a cache', async () => {
    const changed: string[] = []
    vite.watcher.on('change', (path) => changed.push(path.slice(root.length + 1)))
    for (const file of ['dist/a.html', '.cache/a.json', 'src/a.ts', 'public/a.txt']) {
      await writeFile(join(root, file), 'second')
    }
    await expect
      .poll(() => changed.sort(), { timeout: 10_000 })
      .toEqual(['public/a.txt', 'src/a.ts'])
    // What was left out stays out, however long one waits.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(changed).toEqual(['public/a.txt', 'src/a.ts'])
  })
})
