/**
 * The folder of an embedded database (PGlite) must be one the service may write: checked at
 * start, so that a read-only folder stops the start with one line that names it and the
 * setting to change, rather than a stack trace from deep inside a mkdir, or PGlite failing
 * somewhere later.
 */
import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { access, mkdir, readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { SettingError } from '../shared/settings-error'

/** A folder the service must write cannot be written: the setting that names it is wrong. */
export class DataFolderError extends SettingError {}

/**
 * The error codes of a folder that cannot be written: rights, a read-only file system (where
 * a recursive mkdir says ENOENT), a file in the way.
 */
const NOT_WRITABLE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EEXIST', 'ENOENT'])

/**
 * Makes `folder` (and its parents) if missing and writes a file in it and deletes it again;
 * with `deep`, also checks that everything already in it may be written (PGlite aborts with
 * no more than "Aborted()" on a file it cannot write). Throws `DataFolderError` naming the
 * `setting` that moves it, the folder (`what` it is) and what could not be written; `instead`
 * names another way, if there is one ("DATABASE_URL, for PostgreSQL").
 */
export async function ensureWritableFolder(
  folder: string,
  {
    what,
    setting,
    instead,
    deep = false,
    names = 'a folder',
  }: {
    what: string
    setting: string
    instead?: string
    deep?: boolean
    /** What the setting names ("a file" for one written in the folder). */
    names?: string
  },
): Promise<void> {
  const probe = join(folder, `.write-check-${process.pid}-${randomBytes(4).toString('hex')}`)
  let at = ''
  try {
    await mkdir(folder, { recursive: true })
    await writeFile(probe, '', { flag: 'wx' })
    await rm(probe, { force: true })
    if (deep) {
      for (const entry of await readdir(folder, { recursive: true })) {
        at = entry
        await access(join(folder, entry), constants.W_OK)
      }
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? ''
    if (!NOT_WRITABLE.has(code)) throw error
    const user = typeof process.getuid === 'function' ? ` (user ${process.getuid()})` : ''
    const otherwise = `set ${setting} to ${names === 'a folder' ? names : `${names} in a folder`} it may write${instead ? ` (or ${instead})` : ''}`
    // A file where a folder should be (the folder itself, or one above it).
    if (code === 'ENOTDIR' || code === 'EEXIST') {
      throw new DataFolderError(
        setting,
        `cannot make ${what} ${folder}: a file is in its way (${code})`,
        `move that file, or ${otherwise}`,
      )
    }
    throw new DataFolderError(
      setting,
      `cannot write to ${what} ${folder} (${code}${at ? ` at ${at}` : ''})`,
      `make it writable for this service${user}, or ${otherwise}`,
    )
  }
}
