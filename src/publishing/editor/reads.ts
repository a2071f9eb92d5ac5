/**
 * The actions that read what is live (main): entries by folder or by file, one entry, the
 * media library and one image, each as the editor names them.
 */
import { CmsRequestError } from '../../cms/backend'
import { CMS_CONTENT_ROOT, segmentsOf } from '../../cms/paths'
import { generatedImageDirOf } from '../../shared/images'
import type { Person } from '../people/roles'
import type { DraftView } from '../workflow/drafts'
import { type Action, type EditorContext, isRecord, reads } from './context'
import { editorPathOf, MEDIA_ROOT, MEDIA_TYPES, repositoryPathOf } from './paths'

/** An entry's file at `commit` as Decap reads it: its text, or `null` where there is none. */
async function entryAt({ repo }: EditorContext, commit: string, cmsPath: string) {
  const blob = await repo.readBlob(commit, repositoryPathOf(cmsPath))
  if (!blob) return { data: null, file: { path: cmsPath, id: null } }
  return { data: blob.data.toString('utf8'), file: { path: cmsPath, id: blob.id } }
}

/** An image at `commit` as Decap reads it: its bytes in base64. */
export async function mediaAt({ repo }: EditorContext, commit: string, cmsPath: string) {
  const path = repositoryPathOf(cmsPath)
  const blob = await repo.readBlob(commit, path)
  if (!blob) throw new CmsRequestError(`there is no image ${cmsPath}`, 404)
  return {
    id: blob.id,
    name: path.split('/').at(-1),
    path: cmsPath,
    content: blob.data.toString('base64'),
    encoding: 'base64',
  }
}

const entriesByFolder = reads(async (context, _person, params) => {
  const tip = await context.mainTip()
  const folder = `${segmentsOf(params.folder).join('/')}/`
  const files = await context.repo.listFiles(tip, CMS_CONTENT_ROOT)
  const paths = files
    .map((file) => editorPathOf(file.path))
    .filter((path): path is string => path?.startsWith(folder) === true)
  return Promise.all(paths.map((path) => entryAt(context, tip, path)))
})

const entriesByFiles = reads(async (context, _person, params) => {
  const tip = await context.mainTip()
  const files = Array.isArray(params.files) ? params.files.filter(isRecord) : []
  return Promise.all(files.map((file) => entryAt(context, tip, String(file.path))))
})

/** Whether a repository path is an image the media library shows: not one the build writes. */
const isLibraryImage = (path: string) =>
  MEDIA_TYPES.test(path) && generatedImageDirOf(path.slice('public'.length)) === undefined

/**
 * The media library: the site's images under the folder (its sub-folders too: the posts'
 * images are in `blog/`), and those the person's own drafts add there, which are theirs to
 * use while they wait for review.
 */
const getMedia = reads(async (context, person, params) => {
  const folder = segmentsOf(params.mediaFolder).join('/')
  if (folder !== MEDIA_ROOT && !folder.startsWith(`${MEDIA_ROOT}/`)) {
    throw new CmsRequestError(`not an image folder: ${folder}`)
  }
  const tip = await context.mainTip()
  const live = (await context.repo.listFiles(tip, folder)).filter((file) =>
    isLibraryImage(file.path),
  )
  const listed = new Set(live.map((file) => file.path))
  const drafted: { head: string; path: string }[] = []
  for (const draft of await draftsBy(context, person)) {
    for (const path of draft.files) {
      if (!path.startsWith(`${folder}/`) || !isLibraryImage(path)) continue
      if (listed.has(path) || draft.deletes.includes(path)) continue
      listed.add(path)
      drafted.push({ head: draft.head, path })
    }
  }
  // The person's own first: what they uploaded last is what they look for (the library shows
  // the first ones without scrolling).
  return Promise.all([
    ...drafted.map(({ head, path }) => mediaAt(context, head, path)),
    ...live.map((file) => mediaAt(context, tip, file.path)),
  ])
})

/** The drafts the person wrote part of. */
async function draftsBy({ drafts }: EditorContext, person: Person) {
  const all = await Promise.all((await drafts.ids()).map((id) => drafts.get(id)))
  return all.filter((draft) => draft?.writers.includes(person.email) === true) as DraftView[]
}

export const READS: Record<string, Action> = {
  entriesByFolder,
  entriesByFiles,
  getEntry: reads(async (context, _person, params) =>
    entryAt(context, await context.mainTip(), String(params.path)),
  ),
  getMedia,
  getMediaFile: reads(async (context, _person, params) =>
    mediaAt(context, await context.mainTip(), String(params.path)),
  ),
}
