/**
 * How many drafts wait for the signed-in person (notices/waiting.ts), for the count in the
 * navigation of every page and on the start page: every draft read as the page of changes
 * reads it (their histories are cached by `Drafts`), so the count is what that page offers.
 */
import { waitingFor } from '../notices/waiting'
import type { Viewer } from '../pages/screen'
import { listPeople } from '../people/people'
import type { Person } from '../people/roles'
import type { PublishingService } from '../service'
import type { DraftView } from '../workflow/drafts'

export async function waitingCount(
  service: Pick<PublishingService, 'drafts'>,
  person: Person,
): Promise<number> {
  const drafts: DraftView[] = []
  for (const id of await service.drafts.ids()) {
    const draft = await service.drafts.get(id)
    if (draft) drafts.push(draft)
  }
  return waitingFor(person, drafts)
}

/**
 * Who looks at a screen: the person and the drafts waiting for them, for its bar, and the
 * names of everyone the screen may mention (it names people, not their addresses).
 */
export async function viewerOf(
  service: Pick<PublishingService, 'drafts' | 'database'>,
  person: Person,
): Promise<Viewer> {
  const [waiting, names] = await Promise.all([
    waitingCount(service, person),
    namesOf(service.database),
  ])
  return { person, waiting, names }
}

/** Everyone's name by their e-mail address (a few dozen people). */
export async function namesOf(
  database: PublishingService['database'],
): Promise<ReadonlyMap<string, string>> {
  return new Map((await listPeople(database)).map((someone) => [someone.email, someone.name]))
}
