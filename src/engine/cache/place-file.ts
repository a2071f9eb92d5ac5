/**
 * Puts a file the build already has (in its cache, or in the last site) into the new site as a
 * hard link rather than a copy: no bytes written and, above all, no new inode. Creating files is
 * most of a build's system time (a cold build of 120 pages creates some 1,300), and a
 * publication used to create a thousand for a site that changed in one page.
 *
 * Neither side of a link is ever written through: a build writes new files into a new folder
 * and replaces a twin by removing it first, so a link is as safe as the copy was. Across file
 * systems (a cache on another disk) it copies.
 */
import { copyFile, link, mkdir, readdir, rm } from 'node:fs/promises'
import { join, relative } from 'node:path'

export async function placeFile(from: string, to: string): Promise<void> {
  try {
    await link(from, to)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') {
      await rm(to, { force: true })
      return placeFile(from, to)
    }
    // EXDEV (another file system), EPERM (links not allowed there), EMLINK (too many links).
    if (code === 'ENOENT') throw error
    await copyFile(from, to)
  }
}

/**
 * Every file under `from` placed at the same path under `to`, its folders made first. Symbolic
 * links are left out (a cache's link to `node_modules` is made again by the build itself).
 */
export async function placeTree(from: string, to: string): Promise<void> {
  const entries = await readdir(from, { recursive: true, withFileTypes: true })
  const dirs = new Set([to])
  for (const entry of entries) {
    if (entry.isDirectory()) dirs.add(join(to, relative(from, join(entry.parentPath, entry.name))))
  }
  for (const dir of dirs) await mkdir(dir, { recursive: true })
  await Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const file = join(entry.parentPath, entry.name)
        return placeFile(file, join(to, relative(from, file)))
      }),
  )
}
