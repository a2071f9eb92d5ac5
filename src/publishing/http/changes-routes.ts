/**
 * The way to the live site, page by page (its screens: `pages/changes.tsx`, `schedules.tsx`, `releases.tsx`): the changes waiting to go
 * live with the actions the person's roles allow (approve, send back, publish, discard),
 * schedules, and releases with rollback. Every action is checked by the workflow's rules
 * whatever the page offered; a refusal the rules did not record is recorded here.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { waitingFor } from '../notices/waiting'
import { type ChangedFile, changesPage } from '../pages/changes'
import { releasesPage } from '../pages/releases'
import { releasesView } from '../pages/releases-view'
import { schedulesPage } from '../pages/schedules'
import type { EditorLanguage, Person } from '../people/roles'
import { compareFile, entryTitle } from '../review/compare'
import type { PublishingService } from '../service'
import type { DraftView } from '../workflow/drafts'
import { mayRequestRollback } from '../workflow/four-eyes'
import { berlinLocal, fromBerlinTime } from '../workflow/schedules'
import { answerOf, refuseError, unrecorded } from './error-answers'
import { IMAGE_POLICY } from './policy'
import { IMAGE_TYPES } from './previews'
import { bodyOf, HTML_TYPE, type HttpContext, JSON_TYPE, refuse } from './requests'
import { namesOf, viewerOf } from './waiting'

/** Files a reviewer reads field by field: entries. */
const CONTENT_FILE = /\.(ya?ml|md)$/i
/** Files a reviewer reads as text: drawings and data. */
const TEXT_FILE = /\.(svg|json)$/i

/** The version of a draft a request says the person saw (a commit), if it says one. */
const versionOf = (fields: Record<string, unknown>) =>
  typeof fields.version === 'string' ? fields.version.slice(0, 64) : undefined

/** `/changes`, `/schedules`, `/releases` and their actions. */
export function registerChangesRoutes(app: FastifyInstance, context: HttpContext): void {
  registerDraftRoutes(app, context)
  registerScheduleRoutes(app, context)
  registerReleaseRoutes(app, context)
}

/** `/changes`: every draft, with the actions the person's roles allow. */
function registerDraftRoutes(app: FastifyInstance, context: HttpContext): void {
  const { service, signedIn } = context
  const { publisher } = service

  /** A text file of a draft as a reviewer reads it: a new one whole, a changed one as a diff. */
  const sourceOf = async (draft: DraftView, file: string, kind: 'added' | 'changed') =>
    kind === 'added'
      ? ((await service.repo.readFile(draft.head, file))?.toString('utf8') ?? '')
      : (
          await service.repo.git([
            'diff',
            '--no-color',
            '--no-ext-diff',
            '-U3',
            draft.base,
            draft.head,
            '--',
            file,
          ])
        )
          .toString('utf8')
          .split('\n')
          // git's header lines name the paths and blobs; the file is named above.
          .filter((line) => !/^(diff --git|index |--- |\+\+\+ )/.test(line))
          .join('\n')
  const textAt = async (commit: string, path: string) =>
    (await service.repo.readFile(commit, path))?.toString('utf8') ?? null
  /** A draft's files as the page of changes lists them: entries by field, drawings as text. */
  const filesOf = (draft: DraftView, language: EditorLanguage) =>
    Promise.all(
      draft.files.map(async (path): Promise<ChangedFile> => {
        const kind = draft.deletes.includes(path)
          ? 'deleted'
          : draft.adds.includes(path)
            ? 'added'
            : 'changed'
        if (kind === 'deleted') {
          const title = entryTitle(
            path,
            CONTENT_FILE.test(path) ? await textAt(draft.base, path) : null,
          )
          return { path, kind, ...(title ? { title } : {}) }
        }
        if (CONTENT_FILE.test(path)) {
          const [before, after] = await Promise.all([
            kind === 'added' ? null : textAt(draft.base, path),
            textAt(draft.head, path),
          ])
          return { path, kind, review: compareFile(path, before, after, language) }
        }
        if (!TEXT_FILE.test(path)) return { path, kind }
        return { path, kind, source: await sourceOf(draft, path, kind) }
      }),
    )
  app.get('/changes', async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return reply.redirect('/sign-in', 303)
    const drafts: DraftView[] = []
    for (const id of await service.drafts.ids()) {
      const draft = await service.drafts.get(id)
      if (draft) drafts.push(draft)
    }
    const listed = await Promise.all(
      drafts.map(async (draft) => {
        const files = await filesOf(draft, person.language)
        // Named in the viewer's language where the draft has a file of it.
        const own = `content/${person.language}/`
        const title = [...files]
          .sort((a, b) => Number(b.path.startsWith(own)) - Number(a.path.startsWith(own)))
          .map((file) => file.review?.title ?? file.title)
          .find(Boolean)
        return { draft, files, title }
      }),
    )
    return reply
      .type(HTML_TYPE)
      .send(
        changesPage(
          { person, waiting: waitingFor(person, drafts), names: await namesOf(service.database) },
          listed,
        ),
      )
  })
  /** An image as a draft has it, for the reviewer to see: never run, only shown. */
  app.get<{ Querystring: { id?: string; path?: string } }>(
    '/changes/image',
    async (request, reply) => {
      const person = await signedIn(request)
      if (!person) return reply.code(401).type(JSON_TYPE).send({ error: 'Please sign in.' })
      const { id = '', path = '' } = request.query
      const draft = await service.drafts.get(id).catch(() => null)
      if (!draft || !path.startsWith('public/images/') || !draft.files.includes(path)) {
        return reply.code(404).type(JSON_TYPE).send({ error: 'The draft has no such image.' })
      }
      const data = await service.repo.readFile(draft.head, path)
      if (!data)
        return reply.code(404).type(JSON_TYPE).send({ error: 'The draft has no such image.' })
      const type = IMAGE_TYPES[path.split('.').at(-1)?.toLowerCase() ?? '']
      if (!type) return reply.code(404).type(JSON_TYPE).send({ error: 'Not an image.' })
      // An SVG opened on its own runs in a sandbox with nothing allowed.
      return reply.type(type).header('content-security-policy', IMAGE_POLICY).send(data)
    },
  )
  const draftAction =
    (work: (person: Person, id: string, fields: Record<string, unknown>) => Promise<unknown>) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const person = await signedIn(request)
      if (!person) return refuse(reply, 401, 'Please sign in again.')
      const fields = bodyOf(request)
      const id = String(fields.id ?? '')
      try {
        return (await work(person, id, fields)) ?? { done: true }
      } catch (error) {
        const answer = answerOf(error, person.language)
        if (!answer) throw error
        // A refusal the rules did not record themselves (no such draft, a comment too long).
        if (unrecorded(error, answer.status)) {
          await service.drafts.recordRefusal(person, id, {
            code: 'request',
            action: request.url.split('?')[0]?.slice(0, 100) ?? '',
            reason: answer.error.slice(0, 1000),
          })
        }
        return refuse(reply, answer.status, answer.error)
      }
    }
  app.post(
    '/api/changes/approve',
    draftAction(async (person, id, fields) => {
      await service.drafts.approve(person, id, versionOf(fields))
    }),
  )
  app.post(
    '/api/changes/send-back',
    draftAction(async (person, id, fields) => {
      await service.drafts.requestChanges(person, id, String(fields.comment ?? ''))
    }),
  )
  app.post(
    '/api/changes/publish',
    draftAction(async (person, id, fields) => {
      // The version the publisher saw approved, or nothing: a save since returned it to draft.
      await service.drafts.requireSeen(person, id, versionOf(fields))
      const release = await publisher.publish(person, id)
      return { release: release.folder }
    }),
  )
  app.post(
    '/api/changes/discard',
    draftAction(async (person, id) => {
      await service.drafts.discard(person, id)
    }),
  )
}

/**
 * A draft's title in `language`: its entry's, read from the file of that language where it has
 * one (a deletion's from the live version); none for a draft of images alone.
 */
async function titleOfDraft(
  service: Pick<PublishingService, 'repo'>,
  draft: DraftView,
  language: EditorLanguage,
): Promise<string | undefined> {
  const own = `content/${language}/`
  const paths = draft.files
    .filter((path) => CONTENT_FILE.test(path))
    .sort((a, b) => Number(b.startsWith(own)) - Number(a.startsWith(own)))
  for (const path of paths) {
    const at = draft.deletes.includes(path) ? draft.base : draft.head
    const text = (await service.repo.readFile(at, path))?.toString('utf8') ?? null
    const title = entryTitle(path, text)
    if (title) return title
  }
  return undefined
}

/** `/schedules`: the approved drafts waiting for a time, and those that have one. */
function registerScheduleRoutes(app: FastifyInstance, context: HttpContext): void {
  const { service, signedIn } = context
  const { clock } = service

  app.get('/schedules', async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return reply.redirect('/sign-in', 303)
    const schedules = await service.schedules.list()
    // A draft with a time set is listed as scheduled (below), not as still waiting for one.
    const scheduled = new Set(
      schedules.filter((schedule) => schedule.state === 'pending').map((s) => s.draftId),
    )
    const ready = []
    for (const id of await service.drafts.ids()) {
      if (scheduled.has(id)) continue
      const draft = await service.drafts.get(id)
      if (draft?.status === 'pending_publish') ready.push(draft)
    }
    const soon = berlinLocal(new Date(clock().getTime() + 3_600_000))
    // Drafts by their titles; a schedule's draft that is gone since (published) by its id.
    const titles = new Map<string, string>()
    const named = [
      ...ready,
      ...(await Promise.all(schedules.map((schedule) => service.drafts.get(schedule.draftId)))),
    ]
    for (const draft of named) {
      const title = draft && (await titleOfDraft(service, draft, person.language))
      if (draft && title) titles.set(draft.id, title)
    }
    return reply
      .type(HTML_TYPE)
      .send(schedulesPage(await viewerOf(service, person), { ready, schedules, soon, titles }))
  })
  app.post('/api/schedules', async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return refuse(reply, 401, 'Please sign in again.')
    const { draft, at } = bodyOf(request)
    try {
      const schedule = await service.schedules.schedule(
        person,
        String(draft ?? ''),
        fromBerlinTime(String(at ?? '')),
      )
      return {
        id: schedule.id,
        at: schedule.at,
        replaced: schedule.replaced.map((old) => ({ id: old.id, at: old.at })),
      }
    } catch (error) {
      return refuseError(reply, error, person.language)
    }
  })
  app.post('/api/schedules/cancel', async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return refuse(reply, 401, 'Please sign in again.')
    try {
      const id = Number(bodyOf(request).id)
      if (!Number.isSafeInteger(id))
        return refuse(reply, 422, 'Which schedule? Expected its number.')
      await service.schedules.cancel(person, id)
      return { cancelled: true }
    } catch (error) {
      return refuseError(reply, error, person.language)
    }
  })
}

/** `/releases`: the live release and those kept, with rollback. */
function registerReleaseRoutes(app: FastifyInstance, context: HttpContext): void {
  const { service, signedIn } = context
  const { publisher } = service

  app.get('/releases', async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return reply.redirect('/sign-in', 303)
    const releases = await publisher.list()
    const requests = await publisher.rollbackRequests()
    // What rolling back one step would bring back, and whose it is: whether this publisher
    // may do it alone (asked of publishers only: it reads git).
    const previous = mayRequestRollback(person).allowed ? await publisher.previousRelease() : null
    const writers = previous
      ? (await publisher.planRollback(previous).catch(() => null))?.changes.writers
      : undefined
    const view = releasesView(
      person,
      releases,
      requests,
      previous && writers ? { folder: previous, writers } : null,
    )
    return reply.type(HTML_TYPE).send(releasesPage(await viewerOf(service, person), view))
  })
  app.post('/api/releases/rollback', async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return refuse(reply, 401, 'Please sign in again.')
    try {
      const outcome = await publisher.requestRollback(person, String(bodyOf(request).folder ?? ''))
      if (outcome.done) {
        const { folder, commit } = outcome.release
        return { folder, commit, emergency: true }
      }
      // Waiting for a reviewer: accepted, not done.
      const { id, folder, reason } = outcome.request
      return reply.code(202).type(JSON_TYPE).send({ request: id, folder, waiting: reason })
    } catch (error) {
      return refuseError(reply, error, person.language)
    }
  })
  app.post('/api/releases/confirm', async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return refuse(reply, 401, 'Please sign in again.')
    const id = Number(bodyOf(request).id)
    if (!Number.isSafeInteger(id)) return refuse(reply, 422, 'Which rollback? Expected its number.')
    try {
      const release = await publisher.confirmRollback(person, id)
      return { folder: release.folder, commit: release.commit }
    } catch (error) {
      return refuseError(reply, error, person.language)
    }
  })
}
