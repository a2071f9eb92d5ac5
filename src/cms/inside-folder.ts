/**
 * Writes that stay inside their folder. The backend writes an editor's files into a copy of
 * the store (the publishing service's check of a save) or into a developer's checkout
 * (`npm run dev`); a folder on the way that is a symbolic link would carry the write, or a
 * removal, wherever it points: into the live release, or anywhere the process may write.
 *
 * Every folder on the way is checked by its real path (`fs.realpath`) against the real path of
 * the folder the write belongs in, and created one level at a time only under a folder so
 * checked; the file itself is opened without following a link (`O_NOFOLLOW`).
 */
import { constants } from 'node:fs'
import { lstat, mkdir, open, realpath, rm } from 'node:fs/promises'
import { dirname, isAbsolute, join, relative, sep } from 'node:path'

/** A write or removal whose real path would leave its folder. */
export class OutsideFolderError extends Error {}

/** Whether `path` is `folder` or below it (both real paths). */
export function isInside(folder: string, path: string): boolean {
  const rest = relative(folder, path)
  return rest === '' || (!rest.startsWith(`..${sep}`) && rest !== '..' && !isAbsolute(rest))
}

/** The refusal of a folder on the way, named from its own folder (no server path in it). */
const leadsOut = (root: string, at: string) =>
  new OutsideFolderError(`${relative(root, at)} is a symbolic link that leads out of its folder`)

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT'

/**
 * The folder of `file`, checked to be inside `root` by its real path, and created (one level
 * at a time, each under a folder checked) when `create` says so. `null` when it does not exist
 * and is not to be created. `root` itself is the caller's, and is created if missing.
 */
async function checkedFolder(root: string, file: string, create: boolean): Promise<string | null> {
  await mkdir(root, { recursive: true })
  const realRoot = await realpath(root)
  const folder = dirname(file)
  const steps = relative(root, folder)
  if (!isInside(root, folder)) {
    throw new OutsideFolderError(`${relative(root, file)} is not inside its folder`)
  }
  let at = root
  for (const step of steps.split(sep).filter(Boolean)) {
    at = join(at, step)
    const real = await realpath(at).catch((error: unknown) => {
      if (missing(error)) return null
      throw error
    })
    if (real === null) {
      // A link that points nowhere is no folder to create: refused below, as any link out.
      if (
        await lstat(at).then(
          () => true,
          () => false,
        )
      )
        throw leadsOut(root, at)
      if (!create) return null
      await mkdir(at).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      })
      // Made here, or by someone else meanwhile: checked as any folder that was there.
      const made = await realpath(at)
      if (!isInside(realRoot, made)) throw leadsOut(root, at)
      continue
    }
    if (!isInside(realRoot, real)) throw leadsOut(root, at)
  }
  return folder
}

/** Writes `data` to `file`, which must stay inside `root`; its folders are made as needed. */
export async function writeInside(root: string, file: string, data: Buffer | string) {
  await checkedFolder(root, file, true)
  let handle: Awaited<ReturnType<typeof open>>
  try {
    handle = await open(
      file,
      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
      0o644,
    )
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') {
      throw new OutsideFolderError(
        `${relative(root, file)} is a symbolic link: nothing is written through it`,
      )
    }
    throw error
  }
  try {
    await handle.writeFile(data)
  } finally {
    await handle.close()
  }
}

/** Removes `file` (a link itself, never what it points to), which must stay inside `root`. */
export async function removeInside(root: string, file: string) {
  if ((await checkedFolder(root, file, false)) === null) return
  await rm(file, { force: true })
}
