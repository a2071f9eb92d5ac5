/**
 * The editor's working trees: a version's content and images written to a temporary folder, so
 * that the same backend as the editor of `npm run dev` (src/cms/backend.ts) checks a change on
 * it as the build would (paths translated, empty fields dropped, images checked by content, the
 * whole store validated). Nothing is ever committed from such a folder unchecked, and each is
 * removed when its check is done; main's own is kept while main stays where it is.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CmsRequestError, createCmsBackend } from '../../cms/backend'
import type { LabelLanguage } from '../../cms/field-labels'
import { CMS_CONTENT_ROOT } from '../../cms/paths'
import type { GitRepository } from '../git/repository'

/** A temporary folder with a version's content and images, and the checking backend on it. */
export interface WorkingTree {
  dir: string
  backend: ReturnType<typeof createCmsBackend>
}

/**
 * Writes the content and images of `commit` into `dir` (git archive, unpacked by tar). A tree
 * with a symbolic link or a submodule is refused before anything is written: unpacked, a link
 * would take the check's writes (an image saved under its path) wherever it points.
 */
export async function exportTree(repo: GitRepository, commit: string, dir: string): Promise<void> {
  await repo.requireRegularFiles(
    commit,
    `the version ${commit.slice(0, 12)}`,
    'nothing can be saved on it until that is removed',
  )
  const archive = await repo.git(['archive', '--format=tar', commit, CMS_CONTENT_ROOT, 'public'])
  await new Promise<void>((resolve, reject) => {
    const tar = execFile('tar', ['-x', '-C', dir], (error) => (error ? reject(error) : resolve()))
    tar.stdin?.end(archive)
  })
}

/** The checking backend on the content and images in `dir`, refusing in `language`. */
const backendOn = (dir: string, language: LabelLanguage = 'en') =>
  createCmsBackend({
    contentDir: join(dir, CMS_CONTENT_ROOT),
    publicDir: join(dir, 'public'),
    language,
  })

/**
 * Runs `work` on a working tree of `commit` (an empty one for `null`) in a temporary folder
 * named after `purpose`, and removes the folder afterwards, whatever happened.
 */
export async function withWorkingTree<T>(
  repo: GitRepository,
  commit: string | null,
  purpose: string,
  work: (tree: WorkingTree) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), `publishing-${purpose}-`))
  try {
    if (commit !== null) await exportTree(repo, commit, dir)
    return await work({ dir, backend: backendOn(dir) })
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/**
 * Has the checking backend do `action` on the tree; its refusal (a problem it would add, named
 * with file and field, in the person's `language`) is the editor's refusal, `fallback` when it
 * gives no reason.
 */
export async function requireAccepted(
  tree: WorkingTree,
  action: string,
  params: Record<string, unknown>,
  fallback: string,
  language: LabelLanguage = 'en',
): Promise<void> {
  const backend = language === 'en' ? tree.backend : backendOn(tree.dir, language)
  const checked = await backend.handle({ action, params })
  if (checked.status !== 200) {
    const refused = checked.body as { error?: string }
    throw new CmsRequestError(String(refused.error ?? fallback), checked.status)
  }
}

/**
 * Main's content and images on disk, exported once per tip of main (the last one kept): the
 * preview beside the editor renders an entry as edited on it.
 */
export function mainTrees(repo: GitRepository, mainTip: () => Promise<string>) {
  let current: { commit: string; dir: Promise<string> } | undefined
  /** Main's tree, with its checking backend speaking `language`. */
  return async function mainTree(language: LabelLanguage = 'en'): Promise<WorkingTree> {
    const tip = await mainTip()
    if (current?.commit !== tip) {
      const previous = current
      current = {
        commit: tip,
        dir: (async () => {
          const dir = await mkdtemp(join(tmpdir(), 'publishing-main-'))
          await exportTree(repo, tip, dir)
          return dir
        })(),
      }
      previous?.dir.then((dir) => rm(dir, { recursive: true, force: true })).catch(() => {})
    }
    const dir = await current.dir
    return { dir, backend: backendOn(dir, language) }
  }
}
