/**
 * The mail queue's engine on a queue and a mailer of the test's own: outcomes are recorded as
 * the mails go out, not at the end of a round (a process killed mid-round leaves only the
 * mails then in flight to be sent again), a job whose lease is nearly over is left for the
 * next claim, and outcomes the database could not take are recorded before the next claim.
 */
import { describe, expect, it } from 'vitest'
import type { Database } from '../../../src/database/database'
import {
  type JobOutcome,
  type MailQueue,
  type QueuedJob,
  QueueSender,
} from '../../../src/mail/queue-sender'
import type { Mail, Mailer } from '../../../src/mail/transport'

interface TestQueue extends MailQueue<QueuedJob> {
  marked: string[][]
  claims: number
  failMarks: number
}

function queueOf(ids: string[]): TestQueue {
  let open = [...ids]
  const queue: TestQueue = {
    names: { one: 'mail', many: 'mails', queue: 'the test queue' },
    marked: [],
    claims: 0,
    failMarks: 0,
    async endLeases() {},
    async claim(_me, _now, _until, batchSize) {
      queue.claims++
      const ready = open.slice(0, batchSize).map((id) => ({ id, attempts: 1 }))
      open = open.slice(batchSize)
      return { claimed: ready.length, ready }
    },
    compose: (job) => ({ to: `${job.id}@example.com`, subject: job.id, text: job.id }) as Mail,
    async mark(_me, outcomes: JobOutcome<QueuedJob>[]) {
      if (queue.failMarks > 0) {
        queue.failMarks--
        throw new Error('the database is gone')
      }
      queue.marked.push(outcomes.map((outcome) => outcome.job.id))
    },
  }
  return queue
}

/** A mailer whose sends wait for `release(id)` when the id is in `held`. */
function mailerOf(held: Set<string> = new Set()) {
  const sent: string[] = []
  const waiting = new Map<string, () => void>()
  const mailer = {
    async send(mail: Mail) {
      const id = mail.subject
      if (held.has(id)) await new Promise<void>((done) => waiting.set(id, done))
      sent.push(id)
    },
  } as unknown as Mailer
  return {
    mailer,
    sent,
    waitingFor: (id: string) => waiting.has(id),
    release: (id: string) => waiting.get(id)?.(),
  }
}

const database = { kind: 'postgres' } as unknown as Database
const ids = (count: number) => Array.from({ length: count }, (_, index) => `job${index}`)
const tick = () => new Promise((done) => setTimeout(done, 5))

describe('the mail queue engine', () => {
  it('records each mail sent while the round goes on, not after its last mail', async () => {
    const queue = queueOf(ids(8))
    const mail = mailerOf(new Set(['job5']))
    const sender = new QueueSender({ database, mailer: mail.mailer, queue, concurrency: 1 })
    const round = sender.runOnce()
    for (let wait = 0; wait < 200 && !mail.waitingFor('job5'); wait++) await tick()
    await tick()
    // The round hangs on its sixth mail: the five before it are recorded already.
    expect(queue.marked.flat()).toEqual(['job0', 'job1', 'job2', 'job3', 'job4'])
    mail.release('job5')
    expect(await round).toMatchObject({ sent: 8, skipped: 0 })
    expect(queue.marked.flat()).toEqual(ids(8))
  })

  it('leaves a job whose lease is nearly over for the next claim, unsent', async () => {
    const queue = queueOf(ids(4))
    const mail = mailerOf(new Set(['job1']))
    let now = Date.parse('2026-11-29T12:00:00Z')
    const sender = new QueueSender({
      database,
      mailer: mail.mailer,
      queue,
      concurrency: 1,
      leaseMs: 60_000,
      now: () => new Date(now),
    })
    const round = sender.runOnce()
    for (let wait = 0; wait < 200 && !mail.waitingFor('job1'); wait++) await tick()
    // The second mail takes 56 s: the lease (60 s, less a margin of 5 s) is over after it.
    now += 56_000
    mail.release('job1')
    expect(await round).toMatchObject({ sent: 2, skipped: 2 })
    expect(mail.sent).toEqual(['job0', 'job1'])
    expect(queue.marked.flat()).toEqual(['job0', 'job1'])
  })

  it('records what the database refused before it claims again', async () => {
    const queue = queueOf(ids(6))
    const mail = mailerOf()
    const sender = new QueueSender({
      database,
      mailer: mail.mailer,
      queue,
      batchSize: 3,
      concurrency: 1,
    })
    queue.failMarks = 1
    await expect(sender.runOnce()).rejects.toThrow('the database is gone')
    // The three sent are not sent again: recorded first, then the next three claimed and sent.
    expect(await sender.runOnce()).toMatchObject({ sent: 3 })
    expect(mail.sent).toEqual(ids(6))
    expect(queue.marked.flat().sort()).toEqual(ids(6))
    expect(queue.claims).toBe(2)
  })
})
