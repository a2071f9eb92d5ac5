/**
 * Folders a test writes in: new and empty under the system's temporary folder, and removed with
 * everything in them. Plain functions, so unit tests, browser tests and benchmarks share them.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A new empty folder `<system temporary folder>/<prefix>XXXXXX`. */
export const temporaryFolder = (prefix: string): Promise<string> => mkdtemp(join(tmpdir(), prefix))

/**
 * Removes `path` and everything in it, if it is there. Retried: a process the test just stopped
 * (git, a service, PGlite) may still be writing in it, and a file written meanwhile fails a
 * single pass with ENOTEMPTY.
 */
export const removeFolder = (path: string): Promise<void> =>
  rm(path, { recursive: true, force: true, maxRetries: 10 })
