/**
 * Reads a ref as git's files back end keeps it, without starting git: a publication resolves
 * main, a draft's branch and the audit trail's checkpoint a dozen times, and each `git rev-parse`
 * costs 10 to 40 ms on a busy machine (a process started, and its answer waited for).
 *
 * Git writes a ref to a lock file renamed over the old one, and moves refs into `packed-refs`
 * by renaming the new `packed-refs` in place before it removes the loose files: a loose file
 * found is the ref's value, and a loose file missing means `packed-refs` has been written
 * already. Whatever this reader does not know for certain (a symbolic ref, a tag that may need
 * peeling, a repository on the reftable back end or sharing its refs with another, an answer in
 * a shape it does not expect) it leaves to git: `undefined`.
 */
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/

/**
 * A full name under `refs/` that points at a commit as the service writes them (branches, the
 * trail's checkpoints, the remote's copies): no tags (an annotated tag names a tag object, which
 * `^{commit}` peels), nothing that git would read as an expression.
 */
const PLAIN_REF = /^refs\/(?!tags\/)(?:[A-Za-z0-9._-]+\/)*[A-Za-z0-9._-]+$/

/** The repositories this reader can answer for: files back end, refs of their own. */
const readable = new Set<string>()

async function canRead(gitDir: string): Promise<boolean> {
  if (readable.has(gitDir)) return true
  // Asked again until it can (a repository not made yet has no refs folder).
  const can = await Promise.all([
    stat(join(gitDir, 'reftable')).then(
      () => false,
      () => true,
    ),
    stat(join(gitDir, 'commondir')).then(
      () => false,
      () => true,
    ),
    stat(join(gitDir, 'refs')).then(
      (refs) => refs.isDirectory(),
      () => false,
    ),
  ]).then((answers) => answers.every(Boolean))
  if (can) readable.add(gitDir)
  return can
}

/** The contents of a file, or `null` when there is no such file. */
async function contentsOf(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

/** The object `ref` names in `packed-refs`; `null` when it is not there. */
function packedValue(packed: string, ref: string): string | null | undefined {
  for (const line of packed.split('\n')) {
    if (line === '' || line.startsWith('#') || line.startsWith('^')) continue
    const space = line.indexOf(' ')
    if (line.slice(space + 1) !== ref) continue
    const id = line.slice(0, space)
    return OBJECT_ID.test(id) ? id : undefined
  }
  return null
}

/**
 * The commit `ref` points at, `null` when there is no such ref, and `undefined` when git must
 * be asked (see the module's comment).
 */
export async function readRef(gitDir: string, ref: string): Promise<string | null | undefined> {
  if (!PLAIN_REF.test(ref) || ref.split('/').some((part) => part.startsWith('.'))) return undefined
  if (!(await canRead(gitDir))) return undefined
  try {
    const loose = await contentsOf(join(gitDir, ref))
    if (loose !== null) {
      const id = loose.trim()
      return OBJECT_ID.test(id) ? id : undefined
    }
    const packed = await contentsOf(join(gitDir, 'packed-refs'))
    return packed === null ? null : packedValue(packed, ref)
  } catch {
    // A folder where a ref would be (`refs/heads/cms` for `refs/heads/cms`), a file not
    // readable: git knows what that means.
    return undefined
  }
}
