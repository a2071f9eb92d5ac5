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
import { copyFile, link, rm } from 'node:fs/promises'

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
