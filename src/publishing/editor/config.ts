/**
 * Decap's configuration for a signed-in person: the one `npm run dev` uses, made from the
 * content at main's tip (its documents fill the reference fields), with the service's backend,
 * the editorial workflow, comments on drafts, the person's language, and the Publish button
 * offered to publishers only.
 */
import { join } from 'node:path'
import { cmsConfig } from '../../cms/config'
import { createFileStore } from '../../content/file-store'
import type { GitRepository } from '../git/repository'
import type { Person } from '../people/roles'
import { MAIN } from '../workflow/drafts'
import { mayPublishAnything, mayWrite } from '../workflow/four-eyes'
import { withWorkingTree } from './working-tree'

type Documents = Parameters<typeof cmsConfig>[1]

/** The configuration of each person's editor, for the service at `origin`. */
export function editorConfigs(repo: GitRepository, origin: string) {
  let documentsAt: { commit: string; documents: Promise<Documents> } | undefined
  /** The content's documents at main's tip, for the editor's reference fields. */
  const documentsOfMain = async () => {
    const commit = (await repo.resolve(MAIN)) ?? ''
    if (documentsAt?.commit !== commit) {
      documentsAt = {
        commit,
        documents: withWorkingTree(
          repo,
          commit,
          'config',
          async ({ dir }) => (await createFileStore(join(dir, 'content')).read()).documents,
        ),
      }
    }
    return documentsAt.documents
  }

  return async function configFor(person: Person): Promise<Record<string, unknown>> {
    // Every name, hint and description in the person's language, as Decap's own words are.
    const generated = cmsConfig(origin, await documentsOfMain(), person.language)
    return {
      ...generated,
      // Comments on drafts (Decap's notes): a reviewer's word to the authors, kept on record.
      collections: (generated.collections as Record<string, unknown>[]).map((collection) => ({
        ...collection,
        editor: { ...((collection.editor as object | undefined) ?? {}), notes: true },
        // Only a publisher is offered Decap's Publish button (the server refuses anyone else).
        publish: collection.publish !== false && mayPublishAnything(person),
        // Nor are New and Delete offered to someone who may not write (the server refuses).
        ...(mayWrite(person).allowed ? {} : { create: false, delete: false }),
      })),
      backend: { name: 'bank', proxy_url: `${origin}/api/cms`, branch: 'main' },
      publish_mode: 'editorial_workflow',
      show_preview_links: false,
      locale: person.language,
    }
  }
}
