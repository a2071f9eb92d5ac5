/**
 * Telling people: each step of a draft queues, in the step's own transaction, one e-mail to
 * each person concerned, in their language and never to whoever acted; a person who turned the
 * e-mails off gets none; the queue is sent through a real SMTP server by the forms service's
 * engine, and a step taken while the server is down answers at once, its mail sent when the
 * server is back. The navigation counts what waits for the person, as the page offers it.
 */

import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ROOT, readBuildConfig } from '../../../../src/engine/config'
import { createMailer, readOutbox } from '../../../../src/mail/transport'
import { readAudit } from '../../../../src/publishing/audit/trail'
import { createPublishingApp, SESSION_COOKIE } from '../../../../src/publishing/http/app'
import { noticeSender } from '../../../../src/publishing/notices/sender'
import { disablePerson, startSession } from '../../../../src/publishing/people/people'
import type { Person } from '../../../../src/publishing/people/roles'
import { openPublishingService, type PublishingService } from '../../../../src/publishing/service'
import { readPublishingSettings } from '../../../../src/publishing/settings'
import { standInReport } from '../../../support/build-report'
import { type Inbox, startSmtp, until } from '../../../support/forms'
import { documentOf, spokenText } from '../../../support/html'
import { ada, addPeople, olga, paul, person, rita } from '../../../support/people'
import { approveSeen } from '../../../support/publishing'
import { siteRepository } from '../../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

const ORIGIN = 'http://localhost:8081'
/** German-speaking colleagues: an author, a reviewer and a publisher. */
const anna = person('anna@bank.example', ['author'], 'de')
const rolf = person('rolf@bank.example', ['reviewer'], 'de')
const petra = person('petra@bank.example', ['publisher'], 'de')
/** A reviewer who turns the e-mails off, and one whose access was taken away. */
const quiet = person('quiet@bank.example', ['reviewer'])
const gone = person('gone@bank.example', ['reviewer'])
const PEOPLE = [ada, anna, rita, rolf, paul, petra, olga, quiet, gone]
/** Words of the drafts' content: never in a mail. */
const SECRET = 'Confidential launch 7731'

let dir: string
let service: PublishingService
let app: FastifyInstance
let inbox: Inbox
const logged: string[] = []
const cookie: Record<string, string> = {}

beforeAll(async () => {
  dir = await temporaryFolder('publishing-notices-')
  inbox = await startSmtp()
  const remote = await siteRepository(join(dir, 'bank.git'))
  const env = {
    DATA_DIR: join(dir, 'data'),
    PUBLISHING_REMOTE: remote.gitDir,
    SMTP_URL: inbox.url,
  }
  service = await openPublishingService(readPublishingSettings(ROOT, env), {
    root: ROOT,
    buildConfig: readBuildConfig(env),
    // One page stands for the site (the real build is in publisher.test.ts).
    build: async (config) => {
      await mkdir(config.outDir, { recursive: true })
      await writeFile(join(config.outDir, 'index.html'), 'site')
      return standInReport()
    },
    // A failed attempt is tried again after a few milliseconds, not seconds.
    noticeSender: { retryBaseMs: 20, retryMaxMs: 100, pollMs: 20, maxAttempts: 10_000 },
  })
  app = await createPublishingApp(service, {
    logLevel: 'info',
    logStream: { write: (line) => logged.push(line) },
  })
  await addPeople(service.database, PEOPLE)
  for (const { email } of PEOPLE) {
    cookie[email] = `${SESSION_COOKIE}=${(await startSession(service.database, email)).token}`
  }
  await disablePerson(service.database, gone.email)
})

afterAll(async () => {
  await app?.close()
  await service?.close()
  await inbox?.close()
  await removeFolder(dir)
})

beforeEach(async () => {
  await service.database.query('DELETE FROM notice_mails')
  inbox.mails.length = 0
})

interface Queued {
  kind: string
  draft_id: string
  recipient: string
  language: string
  subject: string
  text: string
}

/** The notices queued and not yet sent, by recipient. */
const queued = async () =>
  service.database.query<Queued>(
    `SELECT kind, draft_id, recipient, language, subject, text FROM notice_mails
     WHERE sent_at IS NULL ORDER BY recipient`,
  )
const recipients = async () =>
  (await queued()).map((notice) => [notice.recipient, notice.kind, notice.language])

/** `who` saves `file` (an English or German page) in draft `id`, with a title no mail names. */
async function save(who: Person, id: string, file: string) {
  const text = (await readFile(join(ROOT, file), 'utf8')).replace(
    /^title: .*$/m,
    `title: ${SECRET}`,
  )
  return service.drafts.save(who, id, [{ path: file, content: text }], `${id} by ${who.name}`)
}

const post = (who: Person, url: string, payload: Record<string, unknown>) =>
  app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', origin: ORIGIN, cookie: cookie[who.email] },
    payload,
  })
const page = async (who: Person, url: string) =>
  (await app.inject({ url, headers: { cookie: cookie[who.email] as string } })).body

describe('notices', () => {
  it('tells the reviewers, then authors and publishers, then authors and approver, each in their language and never the actor', async () => {
    await save(ada, 'pages/about', 'content/en/pages/about.yaml')
    await save(olga, 'pages/about', 'content/en/pages/about.yaml')
    await service.drafts.setStatus(ada, 'pages/about', 'pending_review')
    // Every reviewer who may approve it: not Olga (she wrote part of it), not the one who
    // turned them off (none yet), not the one whose access was taken away.
    expect(await recipients()).toEqual([
      ['quiet@bank.example', 'review', 'en'],
      ['rita@bank.example', 'review', 'en'],
      ['rolf@bank.example', 'review', 'de'],
    ])
    const [, toRita, toRolf] = await queued()
    expect(toRita?.subject).toBe('Waiting for your review: pages/about')
    expect(toRita?.text).toContain('ada (ada@bank.example) moved the draft pages/about to review')
    expect(toRita?.text).toContain(`${ORIGIN}/changes#change-pages/about`)
    expect(toRita?.text).toContain(`${ORIGIN}/sign-in`)
    expect(toRolf?.subject).toBe('Wartet auf Ihre Prüfung: pages/about')
    expect(toRolf?.text).toContain('zur Prüfung gegeben')

    await service.database.query('DELETE FROM notice_mails')
    await approveSeen(service.drafts, rolf, 'pages/about')
    // Its authors (Olga once, as an author), and every publisher who may publish it.
    expect(await recipients()).toEqual([
      ['ada@bank.example', 'approved', 'en'],
      ['olga@bank.example', 'approved', 'en'],
      ['paul@bank.example', 'publish', 'en'],
      ['petra@bank.example', 'publish', 'de'],
    ])
    const byKind = Object.fromEntries((await queued()).map((notice) => [notice.recipient, notice]))
    expect(byKind['ada@bank.example']?.subject).toBe('Your draft was approved: pages/about')
    expect(byKind['petra@bank.example']?.subject).toBe(
      'Bereit für Ihre Veröffentlichung: pages/about',
    )
    expect(byKind['petra@bank.example']?.text).toContain('rolf (rolf@bank.example) hat den Entwurf')

    await service.database.query('DELETE FROM notice_mails')
    await service.publisher.publish(paul, 'pages/about')
    // Its authors and its approver; the publisher is who acted.
    expect(await recipients()).toEqual([
      ['ada@bank.example', 'published', 'en'],
      ['olga@bank.example', 'published', 'en'],
      ['rolf@bank.example', 'published', 'de'],
    ])
    const published = (await queued())[2]
    expect(published?.subject).toBe('Veröffentlicht: pages/about')
    expect(published?.text).toContain(`${ORIGIN}/releases`)
    // Each notice was written with the step's trail entry: one per step, none without.
    const trail = await readAudit(service.database)
    expect(trail.filter((entry) => entry.subject === 'pages/about').map((e) => e.action)).toEqual([
      'save',
      'save',
      'submit',
      'approve',
      'publish',
    ])
  })

  it('sends a draft back to its authors with the reviewer’s comment; a withdrawal tells no one', async () => {
    await save(anna, 'pages/ueber-uns', 'content/de/pages/about.yaml')
    await save(ada, 'pages/ueber-uns', 'content/de/pages/about.yaml')
    await service.drafts.setStatus(anna, 'pages/ueber-uns', 'pending_review')
    await service.database.query('DELETE FROM notice_mails')
    // An author taking her draft back is no news to anyone.
    await service.drafts.setStatus(ada, 'pages/ueber-uns', 'draft')
    expect(await queued()).toEqual([])

    await service.drafts.setStatus(anna, 'pages/ueber-uns', 'pending_review')
    await service.database.query('DELETE FROM notice_mails')
    await service.drafts.requestChanges(
      rita,
      'pages/ueber-uns',
      'Please check the rate.\nIt changed on Monday.',
    )
    expect(await recipients()).toEqual([
      ['ada@bank.example', 'sent-back', 'en'],
      ['anna@bank.example', 'sent-back', 'de'],
    ])
    const [toAda, toAnna] = await queued()
    expect(toAda?.subject).toBe('Your draft was sent back: pages/ueber-uns')
    expect(toAda?.text).toContain('> Please check the rate.\n> It changed on Monday.')
    expect(toAnna?.subject).toBe('Ihr Entwurf wurde zurückgegeben: pages/ueber-uns')
    expect(toAnna?.text).toContain('Der Kommentar:\n\n> Please check the rate.')

    // Sent back by moving it to Draft (no comment): its authors are told all the same.
    await service.drafts.setStatus(ada, 'pages/ueber-uns', 'pending_review')
    await service.database.query('DELETE FROM notice_mails')
    await service.drafts.setStatus(rolf, 'pages/ueber-uns', 'draft')
    expect(await recipients()).toEqual([
      ['ada@bank.example', 'sent-back', 'en'],
      ['anna@bank.example', 'sent-back', 'de'],
    ])
    expect((await queued())[0]?.text).not.toContain('The comment')
    await service.drafts.discard(ada, 'pages/ueber-uns')
  })

  it('tells the publisher who set a schedule and the draft’s authors when another cancels it', async () => {
    await save(ada, 'pages/careers', 'content/en/pages/careers.yaml')
    await service.drafts.setStatus(ada, 'pages/careers', 'pending_review')
    await approveSeen(service.drafts, rita, 'pages/careers')
    const at = new Date(Date.now() + 86_400_000)
    const schedule = await service.schedules.schedule(paul, 'pages/careers', at)
    await service.database.query('DELETE FROM notice_mails')
    await service.schedules.cancel(petra, schedule.id)
    expect(await recipients()).toEqual([
      ['ada@bank.example', 'schedule-cancelled', 'en'],
      ['paul@bank.example', 'schedule-cancelled', 'en'],
    ])
    const [toAda] = await queued()
    expect(toAda?.subject).toBe('Publication cancelled: pages/careers')
    expect(toAda?.text).toContain('petra (petra@bank.example) cancelled the publication')
    expect(toAda?.text).toContain('(Berlin)')

    // The function the service's own cancellations call: the service names itself.
    await service.database.query('DELETE FROM notice_mails')
    await service.database.transaction((tx) =>
      service.notices.queue.scheduleCancelled(tx, 'service', {
        draftId: 'pages/careers',
        at,
        createdBy: petra.email,
        writers: [ada.email],
        reason: 'the draft changed after it was scheduled',
      }),
    )
    expect(await recipients()).toEqual([
      ['ada@bank.example', 'schedule-cancelled', 'en'],
      ['petra@bank.example', 'schedule-cancelled', 'de'],
    ])
    const [, toPetra] = await queued()
    expect(toPetra?.text).toContain('Der Veröffentlichungsdienst hat die für')
    expect(toPetra?.text).toContain('Der Grund: the draft changed after it was scheduled')
    await service.drafts.discard(ada, 'pages/careers')
  })

  it('tells the publisher who set a schedule when it is cancelled at its time, its approval gone', async () => {
    const dora = person('dora@bank.example', ['author'])
    await addPeople(service.database, [dora])
    await save(dora, 'pages/careers', 'content/en/pages/careers.yaml')
    await service.drafts.setStatus(dora, 'pages/careers', 'pending_review')
    await approveSeen(service.drafts, rita, 'pages/careers')
    await service.schedules.schedule(paul, 'pages/careers', new Date(Date.now() + 1000))
    // Its author leaves before it is due: the schedule no longer stands under the rules.
    await disablePerson(service.database, dora.email)
    await service.database.query('DELETE FROM notice_mails')
    await new Promise((resolve) => setTimeout(resolve, 1100))
    await service.schedules.fireDue()
    expect(await recipients()).toEqual([['paul@bank.example', 'schedule-cancelled', 'en']])
    const [toPaul] = await queued()
    expect(toPaul?.text).toContain('no longer has access')
    // Nor may another author throw her draft away; an administrator clears it.
    await expect(service.drafts.discard(ada, 'pages/careers')).rejects.toThrow(
      /Only someone who wrote part of this draft, or an administrator, may discard it/,
    )
    const alex = person('alex@bank.example', ['administrator'])
    await addPeople(service.database, [alex])
    await service.drafts.discard(alex, 'pages/careers')
  })

  it('sends nothing to whoever turned the e-mails off, recorded in the trail, until they turn them on', async () => {
    const off = await post(quiet, '/api/me/notices', { notices: 'off' })
    expect(off.statusCode).toBe(200)
    expect(off.json()).toEqual({ notices: false })
    expect(
      (
        await app.inject({ url: '/api/me', headers: { cookie: cookie[quiet.email] as string } })
      ).json().notices,
    ).toBe(false)
    expect(
      documentOf(await page(quiet, '/sign-in')).querySelector<HTMLInputElement>(
        'input[name=notices]:checked',
      )?.value,
    ).toBe('off')
    const [entry] = (await readAudit(service.database)).slice(-1)
    expect(entry).toMatchObject({
      actor: quiet.email,
      action: 'notice-setting',
      subject: quiet.email,
      details: { notices: false },
    })
    expect((await post(quiet, '/api/me/notices', { notices: 'maybe' })).statusCode).toBe(422)

    await save(ada, 'pages/accessibility', 'content/en/pages/accessibility.yaml')
    await service.drafts.setStatus(ada, 'pages/accessibility', 'pending_review')
    // Olga reviews too, and wrote none of this one.
    expect((await recipients()).map(([to]) => to)).toEqual([
      'olga@bank.example',
      'rita@bank.example',
      'rolf@bank.example',
    ])

    expect((await post(quiet, '/api/me/notices', { notices: 'on' })).json()).toEqual({
      notices: true,
    })
    await service.database.query('DELETE FROM notice_mails')
    await service.drafts.setStatus(ada, 'pages/accessibility', 'draft')
    await service.drafts.setStatus(ada, 'pages/accessibility', 'pending_review')
    expect((await recipients()).map(([to]) => to)).toEqual([
      'olga@bank.example',
      'quiet@bank.example',
      'rita@bank.example',
      'rolf@bank.example',
    ])
    await service.drafts.discard(ada, 'pages/accessibility')
  })

  it('counts on every page what waits for the person, as the page of changes offers it', async () => {
    // The bar's link, as a screen reader reads it (the count's badge says it in words).
    const changesLink = (html: string) =>
      spokenText(documentOf(html).querySelector('nav a[href="/changes"]'))
    await save(ada, 'pages/case-studies', 'content/en/pages/case-studies.yaml')
    await save(olga, 'pages/case-studies', 'content/en/pages/case-studies.yaml')
    await service.drafts.setStatus(ada, 'pages/case-studies', 'pending_review')
    await save(anna, 'pages/404', 'content/en/pages/404.yaml')
    await service.drafts.setStatus(anna, 'pages/404', 'pending_review')
    await approveSeen(service.drafts, rolf, 'pages/404')

    // Rita: one to review (the other is approved); Rolf: the same one; Olga wrote it.
    const forRita = await page(rita, '/changes')
    expect(changesLink(forRita)).toBe('Changes (1 waiting for you)')
    expect(forRita.match(/data-action="\/api\/changes\/approve"/g)).toHaveLength(1)
    expect(changesLink(await page(rolf, '/changes'))).toBe('Änderungen (1 wartet auf Sie)')
    // Paul: one to publish; Petra too, in German; Olga may publish the one she did not write.
    const forPaul = await page(paul, '/changes')
    expect(changesLink(forPaul)).toBe('Changes (1 waiting for you)')
    expect(forPaul.match(/data-action="\/api\/changes\/publish"/g)).toHaveLength(1)
    const schedules = await page(petra, '/schedules')
    expect(changesLink(schedules)).toBe('Änderungen (1 wartet auf Sie)')
    // The draft to schedule by its title, and who approved it by name.
    const ready = spokenText(documentOf(schedules).querySelector('.cards li'))
    expect(ready).toContain(SECRET)
    expect(ready).toContain(', rolf')
    expect(ready).not.toContain('@bank.example')
    expect(changesLink(await page(olga, '/releases'))).toBe('Changes (1 waiting for you)')
    // Anna may discard her own draft only, not Ada's and Olga's.
    const forAnna = documentOf(await page(anna, '/changes'))
    expect(
      [
        ...forAnna.querySelectorAll('form[data-action="/api/changes/discard"] input[name="id"]'),
      ].map((input) => input.getAttribute('value')),
    ).toEqual(['pages/404'])
    // Ada wrote both and reviews nothing.
    expect(changesLink(await page(ada, '/changes'))).toBe('Changes')
    // The start page says it too, with the link.
    expect(await page(paul, '/sign-in')).toContain(
      '<a href="/changes">Changes: 1 draft waits for you</a>',
    )
    // Each draft is where its notices point.
    expect(forRita).toContain('id="change-pages/case-studies"')

    await approveSeen(service.drafts, rita, 'pages/case-studies')
    expect(changesLink(await page(rita, '/changes'))).toBe('Changes')
    expect(changesLink(await page(paul, '/changes'))).toBe('Changes (2 waiting for you)')
    expect(changesLink(await page(olga, '/changes'))).toBe('Changes (1 waiting for you)')
    await service.drafts.discard(ada, 'pages/case-studies')
    await service.drafts.discard(anna, 'pages/404')
  })

  it('answers while the mail server is down and sends each notice once it is back, through SMTP, with no address in the log', async () => {
    await save(ada, 'pages/consumer-credit-faqs', 'content/en/pages/consumer-credit-faqs.yaml')
    await service.drafts.setStatus(ada, 'pages/consumer-credit-faqs', 'pending_review')
    await service.database.query('DELETE FROM notice_mails')
    const head = (await service.drafts.get('pages/consumer-credit-faqs'))?.head
    service.notices.sender.start(app.log)
    try {
      await inbox.stop()
      // The server holds no connection now: a request that waited for it would fail or hang.
      const approved = await post(rita, '/api/changes/approve', {
        id: 'pages/consumer-credit-faqs',
        version: head,
      })
      expect(approved.statusCode).toBe(200)
      // The sender tried, failed, and put them back for later.
      const tried = await until(() =>
        service.database.query<{ attempts: number; last_error: string }>(
          'SELECT attempts, last_error FROM notice_mails WHERE last_error IS NOT NULL AND sent_at IS NULL',
        ),
      )
      expect(tried[0]?.attempts).toBeGreaterThan(0)
      expect(inbox.mails).toEqual([])

      await inbox.start()
      const mails = await inbox.waitFor(4)
      await new Promise((done) => setTimeout(done, 200))
      // Exactly once each: Ada (approved), Olga, Paul and Petra (to publish).
      expect(Object.fromEntries(inbox.countByRecipient())).toEqual({
        'ada@bank.example': 1,
        'olga@bank.example': 1,
        'paul@bank.example': 1,
        'petra@bank.example': 1,
      })
      const toPetra = mails.find((mail) => mail.to?.[0]?.address === petra.email)
      expect(toPetra?.subject).toBe('Bereit für Ihre Veröffentlichung: pages/consumer-credit-faqs')
      expect(toPetra?.from?.address).toBe('publishing@lumora-bank.example')
      expect(toPetra?.text).toContain(`${ORIGIN}/changes#change-pages/consumer-credit-faqs`)
      expect(toPetra?.html).toContain(
        `<a href="${ORIGIN}/changes#change-pages/consumer-credit-faqs">`,
      )
      expect(toPetra?.html).toContain('<html lang="de">')
      expect(toPetra?.headers.find((header) => header.key === 'auto-submitted')?.value).toBe(
        'auto-generated',
      )
      const sent = await service.database.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM notice_mails WHERE sent_at IS NOT NULL',
      )
      expect(sent[0]?.n).toBe(4)
    } finally {
      await service.notices.sender.stop()
    }
    // No mail carries the draft's content; no log line an address of a reader or a mail's text.
    for (const mail of inbox.mails)
      expect(`${mail.subject}${mail.text}${mail.html}`).not.toContain(SECRET)
    const log = logged.join('')
    expect(log).toContain('notice e-mail not sent; will retry')
    expect(log).toContain('notice e-mails sent')
    for (const email of [ada.email, paul.email, petra.email]) expect(log).not.toContain(email)
    expect(log).not.toContain('Bereit für')
    await service.drafts.discard(ada, 'pages/consumer-credit-faqs')
  })

  it('writes the notices into the outbox without SMTP_URL, where npm run forms -- outbox lists them', async () => {
    const outboxDir = join(dir, 'outbox')
    const mailer = await createMailer({ outboxDir, from: 'Publishing <publishing@bank.example>' })
    const sender = noticeSender({ database: service.database, mailer })
    try {
      await save(anna, 'pages/impressum', 'content/de/pages/about.yaml')
      await service.drafts.setStatus(anna, 'pages/impressum', 'pending_review')
      expect(await sender.runOnce()).toEqual({ sent: 4, retried: 0, failed: 0, skipped: 0 })
      expect(await sender.runOnce()).toEqual({ sent: 0, retried: 0, failed: 0, skipped: 0 })
      const mails = await readOutbox(outboxDir)
      expect(mails.map((mail) => [mail.to, mail.subject]).sort()).toEqual([
        ['olga@bank.example', 'Waiting for your review: pages/impressum'],
        ['quiet@bank.example', 'Waiting for your review: pages/impressum'],
        ['rita@bank.example', 'Waiting for your review: pages/impressum'],
        ['rolf@bank.example', 'Wartet auf Ihre Prüfung: pages/impressum'],
      ])
    } finally {
      await mailer.close()
      await service.drafts.discard(anna, 'pages/impressum')
    }
  })
})
