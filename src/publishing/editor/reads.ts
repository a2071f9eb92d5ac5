/**
 * The actions that read what is live (main): entries by folder or by file, one entry, the
 * images of a folder and one image, each as the editor names them.
 */
import { CmsRequestError } from '../../cms/backend'
import { CMS_CONTENT_ROOT, segmentsOf } from '../../cms/paths'
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

const getMedia = reads(async (context, _person, params) => {
  const folder = segmentsOf(params.mediaFolder).join('/')
  if (folder !== MEDIA_ROOT && !folder.startsWith(`${MEDIA_ROOT}/`)) {
    throw new CmsRequestError(`not an image folder: ${folder}`)
  }
  const tip = await context.mainTip()
  const files = (await context.repo.listFiles(tip, folder)).filter(
    (file) => MEDIA_TYPES.test(file.path) && !file.path.slice(folder.length + 1).includes('/'),
  )
  return Promise.all(files.map((file) => mediaAt(context, tip, file.path)))
})

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
