/**
 * Work done once in a process of its own, which ends when the work is done: for what a
 * long-running program does once and that takes far more memory than the program itself, the
 * bundling of the publishing service's editor by Vite and Rolldown, or `npm start`'s build of
 * the site before it serves. A process gives back to the system whatever such work took (its
 * heap at its highest, the libraries it loaded with their threads, what the allocators keep),
 * where the program, doing the same itself, kept most of it for as long as it ran.
 *
 * The process runs a worker script compiled beside the programs (`scripts/run.mjs` names their
 * folder in `SITE_PROGRAMS_DIR`), which takes one job and answers once (`answerOnce`). The
 * answer comes back as it is, a failure as an error with the same message and stack (the
 * content store's problems as a `ContentValidationError` with their list), and a process that
 * stops without answering (killed, out of memory) as an error that says so. The process ends
 * when the one that started it does (its channel closes), whatever it was doing.
 */
import { fork, type Serializable } from 'node:child_process'
import { join } from 'node:path'
import { type ContentProblem, ContentValidationError } from '../../content/errors'

/** A worker's script and the Node.js flags it runs with. */
export interface WorkerScript {
  script: string
  execArgv: string[]
}

/** An error as it crosses from the worker. */
interface Thrown {
  message: string
  stack?: string
  problems?: readonly ContentProblem[]
}

type Answer<Result> = { result: Result } | { error: Thrown }

/**
 * The worker `name` (`build-worker`) compiled in the programs' folder; none without it (the
 * tests, the tools run from source), and the caller then does the work itself.
 */
export function compiledWorker(
  name: string,
  programsDir: string | undefined = process.env.SITE_PROGRAMS_DIR,
): WorkerScript | undefined {
  // Not this program's flags (an inspector's port, say): a plain Node.js. Its environment is
  // this one's: the programs' folder, NODE_ENV, NODE_OPTIONS, the settings the work reads.
  return programsDir ? { script: join(programsDir, `${name}.mjs`), execArgv: [] } : undefined
}

function errorOf(thrown: Thrown): Error {
  const error = thrown.problems
    ? new ContentValidationError(thrown.problems)
    : new Error(thrown.message)
  error.message = thrown.message
  if (thrown.stack) error.stack = thrown.stack
  return error
}

/** Does `job` in a process of `worker`'s, and answers what it answered. */
export function inChild<Job extends Serializable, Result>(
  worker: WorkerScript,
  job: Job,
): Promise<Result> {
  const child = fork(worker.script, [], {
    serialization: 'advanced',
    execArgv: worker.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  return new Promise<Result>((resolve, reject) => {
    let answered = false
    child.once('message', (answer: Answer<Result>) => {
      answered = true
      if ('result' in answer) resolve(answer.result)
      else reject(errorOf(answer.error))
    })
    child.once('error', (error) => {
      answered = true
      reject(error)
    })
    child.once('exit', (code, signal) => {
      if (!answered) reject(new Error(`its process stopped (${signal ?? `exit code ${code}`})`))
    })
    child.send(job)
  })
}

/**
 * In a worker's script: does the one job it is sent with `work`, answers, and ends the process
 * (what the work left running, a worker thread or a process of its own, would keep it alive).
 */
export function answerOnce<Job, Result>(work: (job: Job) => Promise<Result>): void {
  // The process that started it ended (or let go of it): the work is no one's any more.
  process.on('disconnect', () => process.exit(1))
  process.once('message', async (job: Job) => {
    let answer: Answer<Result>
    try {
      answer = { result: await work(job) }
    } catch (error) {
      answer = {
        error:
          error instanceof Error
            ? {
                message: error.message,
                ...(error.stack ? { stack: error.stack } : {}),
                ...(error instanceof ContentValidationError ? { problems: error.problems } : {}),
              }
            : { message: String(error) },
      }
    }
    process.send?.(answer, () => process.exit(0))
  })
}
