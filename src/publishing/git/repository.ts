/**
 * The publishing service's git repository, written with git's own plumbing and never through a
 * working tree: every write builds its tree in a temporary index of its own, makes a commit on
 * the parent it read, and moves the branch with compare-and-swap (`update-ref <new> <old>`), so
 * two saves never lose each other's work: the second is told the branch moved, and retries on
 * the new tip or gives up. Commits carry the person who made the change as their author.
 *
 * The repository may be bare (the service's own under `data/`) or a clone someone works in:
 * only refs and objects are touched, never its files or its index.
 */
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { kindOfMode, PublishingError, type SpecialEntry } from '../errors'
import { BlobReader, type GitBlob } from './blob-reader'
import { RefUpdater, writable } from './ref-updater'
import { readRef } from './refs'
import { runCommand } from './spawner'

/** A person as git records them. */
export interface Person {
  name: string
  email: string
}

/** One file's new content, or `null` to delete it. Paths are relative to the repository's root. */
export interface FileChange {
  path: string
  content: Buffer | string | null
}

/** The branch moved since it was read: the write was not made. */
export class RefMovedError extends PublishingError<'ref-moved'> {
  constructor(
    readonly ref: string,
    readonly expected: string | null,
  ) {
    super('ref-moved', { ref, expected })
  }
}

/** A path a change may not name: outside the tree, or git's own. */
export class UnsafePathError extends PublishingError<'unsafe-path'> {}

/**
 * A tree entry git would write as something other than a plain file: a symbolic link (120000),
 * a submodule (a gitlink, 160000), or any other mode. Checked out, a link would let whatever
 * the tree puts under its path be written, and read, wherever the link points. (Refusals name
 * them in the words of `../errors.ts`, with `kindOfMode`.)
 */
export type { SpecialEntry }
export { kindOfMode }

/** The modes of the files the service takes: a regular file, executable or not. */
const REGULAR_MODES = new Set(['100644', '100755'])

/** A tree that holds links, submodules or other entries that are no regular file. */
export class SpecialEntryError extends PublishingError<'special-entries'> {
  constructor(
    /** What holds them, as the sentence begins: `the remote's main`, `the draft`. */
    readonly holder: string,
    readonly entries: SpecialEntry[],
    /** What to do, as the sentence ends: `remove it on the remote`. */
    advice = '',
  ) {
    super('special-entries', { holder, entries, advice })
  }
}

/** Two lines of work that change the same lines: which files, for the person to re-save. */
export class MergeConflictError extends Error {
  constructor(readonly files: string[]) {
    super(`the changes conflict in ${files.join(', ')}`)
  }
}

export interface GitOptions {
  /** The repository's git directory (`.git` of a clone, or a bare repository). */
  gitDir: string
  /** Who git says made a commit when no person is given (the service itself). */
  committer?: Person
}

const SERVICE: Person = { name: 'Publishing service', email: 'publishing@localhost' }
/** A full object id (SHA-1 or SHA-256). */
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/

/** A path inside the tree: relative, no `.` or `..` segment, no `.git`, no empty segment. */
export function checkPath(path: string): string {
  const segments = path.split('/')
  if (
    path.length === 0 ||
    path.length > 1024 ||
    segments.some(
      (segment) =>
        segment === '' || segment === '.' || segment === '..' || segment.toLowerCase() === '.git',
    ) ||
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refused, not matched for use
    /[\u0000-\u001f\u007f\\]/.test(path)
  ) {
    throw new UnsafePathError('unsafe-path', { path })
  }
  return path
}

/**
 * How git proves itself to the bank's remote, from the service's settings (the machine's and the
 * user's git configuration are ignored, credential helpers there too):
 * - `PUBLISHING_REMOTE_TOKEN` (with `PUBLISHING_REMOTE_USER`, default `git`) over HTTPS: a
 *   credential helper given as configuration in the environment, which reads the token from
 *   git's environment, so it is never on a command line;
 * - `PUBLISHING_SSH_KEY` (a private key file, a deploy key) over SSH, checked against
 *   `PUBLISHING_SSH_KNOWN_HOSTS` (a known_hosts file; without it, against none: refused).
 */
export function remoteCredentials(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const credentials: NodeJS.ProcessEnv = {}
  if (env.PUBLISHING_REMOTE_TOKEN) {
    credentials.GIT_CONFIG_COUNT = '1'
    credentials.GIT_CONFIG_KEY_0 = 'credential.helper'
    credentials.GIT_CONFIG_VALUE_0 =
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's, when git runs it
      '!f() { test "$1" = get && printf \'username=%s\\npassword=%s\\n\' "${PUBLISHING_REMOTE_USER:-git}" "$PUBLISHING_REMOTE_TOKEN"; }; f'
  }
  if (env.PUBLISHING_SSH_KEY) {
    const quote = (path: string) => `'${path.replaceAll("'", "'\\''")}'`
    credentials.GIT_SSH_COMMAND = [
      'ssh',
      '-i',
      quote(env.PUBLISHING_SSH_KEY),
      '-o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=yes',
      `-o UserKnownHostsFile=${quote(env.PUBLISHING_SSH_KNOWN_HOSTS || '/dev/null')}`,
    ].join(' ')
  }
  return credentials
}

/**
 * The trailer by which the service's commits on main anchor the audit trail
 * (../audit/anchors.ts). A line of an editor's message that would read as one is defused.
 */
export const ANCHOR_TRAILER = 'Audit-Trail'

export class GitRepository {
  readonly gitDir: string
  private readonly committer: Person

  private blobs: BlobReader | undefined
  private updater: RefUpdater | undefined

  /**
   * The trailers of the commits the service makes on main (a publication, a rollback, taking
   * in the remote): the audit trail's length and last hash at that moment (set by service.ts;
   * none when unset).
   */
  mainTrailers: (() => Promise<string[]>) | undefined

  constructor(options: GitOptions) {
    this.gitDir = options.gitDir
    this.committer = options.committer ?? SERVICE
  }

  /** The environment git runs in for this repository. */
  private env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    return {
      ...process.env,
      GIT_DIR: this.gitDir,
      // Nothing of the machine's or the user's configuration changes what is written.
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      LC_ALL: 'C',
      ...remoteCredentials(process.env),
      ...extra,
    }
  }

  /**
   * Runs git on this repository; resolves with its standard output. Through the small helper
   * process (`spawner.ts`): forked from this one, each command would cost several times more.
   */
  async git(args: string[], input?: Buffer | string, env: NodeJS.ProcessEnv = {}): Promise<Buffer> {
    const { code, stdout, stderr } = await runCommand('git', args, { env: this.env(env), input })
    if (code === 0) return stdout
    const error = new Error(
      `git ${args[0]} failed (${code}): ${stderr.toString().trim()}`,
    ) as Error & {
      code?: number
      stdout?: Buffer
    }
    error.code = code ?? undefined
    error.stdout = stdout
    throw error
  }

  /** `message` for a commit on main: with `mainTrailers` as its last paragraph, if any. */
  async withTrailers(message: string): Promise<string> {
    const trailers = (await this.mainTrailers?.()) ?? []
    return trailers.length > 0 ? `${message.trimEnd()}\n\n${trailers.join('\n')}\n` : message
  }

  private async text(args: string[]): Promise<string> {
    return (await this.git(args)).toString('utf8').trim()
  }

  /**
   * The commit a branch or ref points at, or `null` when it does not exist. A full ref name is
   * read from the repository's files (`refs.ts`), anything else asked of git.
   */
  async resolve(ref: string): Promise<string | null> {
    const read = await readRef(this.gitDir, ref)
    if (read !== undefined) return read
    try {
      return await this.text(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])
    } catch {
      return null
    }
  }

  /** A file's content at a commit, or `null` when the commit has no such file. */
  async readFile(commit: string, path: string): Promise<Buffer | null> {
    return (await this.readBlob(commit, path))?.data ?? null
  }

  /**
   * A file at a commit (a commit id, or a name git resolves first) with its blob id, or `null`
   * when the commit has no such file. One `git cat-file --batch` answers all reads.
   */
  async readBlob(commit: string, path: string): Promise<GitBlob | null> {
    checkPath(path)
    const id = OBJECT_ID.test(commit) ? commit : await this.resolve(commit)
    if (!id) return null
    this.blobs ??= new BlobReader(this.env())
    return this.blobs.read(`${id}:${path}`)
  }

  /** Stops the processes that read blobs and move refs (each also stops by itself when idle). */
  close(): void {
    this.blobs?.close()
    this.updater?.close()
  }

  /** The files under `folder` (all when empty) at a commit, with their blob ids. */
  async listFiles(commit: string, folder = ''): Promise<{ path: string; blob: string }[]> {
    if (folder) checkPath(folder)
    const output = await this.git([
      'ls-tree',
      '-r',
      '-z',
      '--full-tree',
      commit,
      ...(folder ? ['--', folder] : []),
    ])
    return output
      .toString('utf8')
      .split('\0')
      .filter(Boolean)
      .map((line) => {
        const [meta = '', path = ''] = line.split('\t')
        return { path, blob: meta.split(' ')[2] ?? '' }
      })
  }

  /**
   * The entries of `treeish` (a commit or a tree) that are no regular file: symbolic links,
   * submodules, anything but modes 100644 and 100755. Empty for a tree the service may write
   * out.
   */
  async specialEntries(treeish: string): Promise<SpecialEntry[]> {
    const output = await this.git(['ls-tree', '-r', '-z', '--full-tree', treeish])
    const found: SpecialEntry[] = []
    for (const line of output.toString('utf8').split('\0')) {
      if (!line) continue
      const tab = line.indexOf('\t')
      const mode = line.slice(0, line.indexOf(' '))
      if (!REGULAR_MODES.has(mode)) found.push({ path: line.slice(tab + 1), mode })
    }
    return found
  }

  /** Throws `SpecialEntryError` (naming `holder`) when `treeish` has entries no regular file. */
  async requireRegularFiles(treeish: string, holder: string, advice = ''): Promise<void> {
    const found = await this.specialEntries(treeish)
    if (found.length > 0) throw new SpecialEntryError(holder, found, advice)
  }

  /**
   * Makes a commit of `changes` on `parent` (or on nothing, for a first commit) and moves `ref`
   * to it if `ref` still points at `parent` (or `expected`); throws `RefMovedError` when it moved
   * meanwhile.
   */
  async commit(options: {
    ref: string
    parent: string | null
    changes: FileChange[]
    author: Person
    message: string
    /** More parents after `parent` (a merge). */
    mergeParents?: string[]
    /** What `ref` must point at now, if not `parent` (`null`: a new branch). */
    expected?: string | null
    /** The date the commit records (tests inject the clock). */
    date?: Date
  }): Promise<string> {
    const tree = await this.treeWith(options.parent, options.changes)
    const commit = await this.commitTree(tree, {
      parents: [...(options.parent ? [options.parent] : []), ...(options.mergeParents ?? [])],
      author: options.author,
      message: defuseAnchors(options.message),
      date: options.date,
    })
    await this.moveRef(
      options.ref,
      commit,
      options.expected === undefined ? options.parent : options.expected,
    )
    return commit
  }

  /** The tree of `parent` with `changes` applied, written to the object store. */
  async treeWith(parent: string | null, changes: FileChange[]): Promise<string> {
    const index = join(tmpdir(), `publishing-index-${randomBytes(8).toString('hex')}`)
    const env = { GIT_INDEX_FILE: index }
    try {
      if (parent) await this.git(['read-tree', parent], undefined, env)
      else await this.git(['read-tree', '--empty'], undefined, env)
      const lines: string[] = []
      for (const change of changes) {
        const path = checkPath(change.path)
        if (change.content === null) {
          lines.push(`0 ${'0'.repeat(40)}\t${path}`)
        } else {
          const id = (await this.git(['hash-object', '-w', '--stdin'], Buffer.from(change.content)))
            .toString()
            .trim()
          lines.push(`100644 ${id}\t${path}`)
        }
      }
      if (lines.length) {
        await this.git(['update-index', '-z', '--index-info'], `${lines.join('\0')}\0`, env)
      }
      const tree = (await this.git(['write-tree'], undefined, env)).toString().trim()
      // No commit of the service carries a link or a submodule, whatever its parent held.
      await this.requireRegularFiles(tree, 'the tree this change makes')
      return tree
    } finally {
      await rm(index, { force: true })
    }
  }

  /** A commit object of `tree` with its parents, author and message; no ref moves. */
  async commitTree(
    tree: string,
    options: { parents: string[]; author: Person; message: string; date?: Date },
  ): Promise<string> {
    const date = options.date ? `${Math.floor(options.date.getTime() / 1000)} +0000` : undefined
    const output = await this.git(
      ['commit-tree', tree, ...options.parents.flatMap((parent) => ['-p', parent])],
      options.message,
      {
        GIT_AUTHOR_NAME: options.author.name,
        GIT_AUTHOR_EMAIL: options.author.email,
        GIT_COMMITTER_NAME: this.committer.name,
        GIT_COMMITTER_EMAIL: this.committer.email,
        ...(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {}),
      },
    )
    return output.toString().trim()
  }

  /** Moves `ref` to `commit` if it still points at `expected` (`null`: if it does not exist). */
  async moveRef(
    ref: string,
    commit: string,
    expected: string | null,
    options: { log?: string } = {},
  ): Promise<void> {
    // With `log`, the ref keeps a reflog (a bare repository keeps none by default): a process
    // of its own, for the message. Without, the running updater takes it (`ref-updater.ts`).
    const log = options.log ? ['--create-reflog', '-m', options.log] : []
    const change = { ref, to: commit, from: expected }
    try {
      if (!options.log && writable(change)) await this.refs().apply([change])
      else await this.git(['update-ref', ...log, ref, commit, expected ?? '0'.repeat(40)])
    } catch {
      throw new RefMovedError(ref, expected)
    }
  }

  /** Deletes `ref` if it still points at `expected`. */
  async deleteRef(ref: string, expected: string): Promise<void> {
    const change = { ref, delete: true as const, from: expected }
    try {
      if (writable(change)) await this.refs().apply([change])
      else await this.git(['update-ref', '-d', ref, expected])
    } catch {
      throw new RefMovedError(ref, expected)
    }
  }

  private refs(): RefUpdater {
    this.updater ??= new RefUpdater(this.env())
    return this.updater
  }

  /**
   * Merges `theirs` into `ours` without a working tree (`merge-tree --write-tree`): the merged
   * tree, or `MergeConflictError` naming the files both changed in conflicting ways.
   */
  async mergeTrees(ours: string, theirs: string): Promise<string> {
    try {
      const output = await this.git([
        'merge-tree',
        '--write-tree',
        '-z',
        '--name-only',
        ours,
        theirs,
      ])
      return output.toString('utf8').split('\0')[0] ?? ''
    } catch (error) {
      const stdout = (error as { stdout?: Buffer; code?: number }).stdout
      if ((error as { code?: number }).code === 1 && stdout) {
        // Exit 1: conflicts. The tree, then the conflicted files, then the messages.
        const [, ...rest] = stdout.toString('utf8').split('\0')
        const files = rest.slice(0, rest.indexOf('')).filter(Boolean)
        throw new MergeConflictError([...new Set(files)])
      }
      throw error
    }
  }

  /** The files that differ between two commits. */
  async changedFiles(from: string, to: string): Promise<string[]> {
    return (await this.fileChanges(from, to)).map((change) => change.path)
  }

  /** The files that differ between two commits, each added, changed or deleted. */
  async fileChanges(
    from: string,
    to: string,
  ): Promise<{ path: string; kind: 'added' | 'changed' | 'deleted' }[]> {
    const output = await this.git([
      'diff-tree',
      '-r',
      '-z',
      '--name-status',
      '--no-renames',
      from,
      to,
    ])
    // -z: status, NUL, path, NUL, for each file.
    const fields = output.toString('utf8').split('\0')
    const changes: { path: string; kind: 'added' | 'changed' | 'deleted' }[] = []
    for (let index = 0; index + 1 < fields.length; index += 2) {
      const status = fields[index] ?? ''
      const path = fields[index + 1] ?? ''
      if (!path) continue
      changes.push({
        path,
        kind: status === 'A' ? 'added' : status === 'D' ? 'deleted' : 'changed',
      })
    }
    return changes
  }

  /** The newest commit both reach (where a branch started from another). */
  async mergeBase(one: string, other: string): Promise<string | null> {
    try {
      return (await this.git(['merge-base', one, other])).toString().trim() || null
    } catch {
      return null
    }
  }

  /** Whether `ancestor` is reachable from `commit`. */
  async isAncestor(ancestor: string, commit: string): Promise<boolean> {
    try {
      await this.git(['merge-base', '--is-ancestor', ancestor, commit])
      return true
    } catch (error) {
      // Exit 1 is git's "no"; anything else (a missing object, a repository git cannot read)
      // is no answer, and must not pass for one.
      if ((error as { code?: number }).code === 1) return false
      throw error
    }
  }
}

/**
 * Fetches `branch` of `remote` (a URL or path) into `refs/remotes/upstream/<branch>` and returns
 * its tip, or `null` when the remote has no such branch. A tip the repository has already (the
 * commit the service pushed there last, the usual case at a publication) is not fetched: the
 * tracking ref is moved to it, which saves a fetch's negotiation with the remote (about 60 of
 * 100 ms on a remote on the same disk).
 */
export async function fetchBranch(
  repo: GitRepository,
  remote: string,
  branch: string,
): Promise<string | null> {
  const tracking = `refs/remotes/upstream/${branch}`
  const listed = (
    await repo.git(['ls-remote', '--heads', remote, `refs/heads/${branch}`])
  ).toString('utf8')
  const advertised = listed.trim().split(/\s+/)[0] ?? ''
  if (advertised === '') return null
  if (OBJECT_ID.test(advertised)) {
    const tracked = await repo.resolve(tracking)
    if (tracked === advertised) return advertised
    // Had already: with everything it refers to, as every commit this repository holds.
    if ((await repo.resolve(advertised)) === advertised) {
      await repo.git(['update-ref', tracking, advertised])
      return advertised
    }
  }
  await repo.git(['fetch', '--quiet', '--no-tags', remote, `+refs/heads/${branch}:${tracking}`])
  return repo.resolve(tracking)
}

/**
 * A message written by someone (an editor's save) with every line that would read as the
 * audit trail's anchor quoted: only the service's own commits on main carry one.
 */
export function defuseAnchors(message: string): string {
  return message.replace(new RegExp(`^(?=[ \\t]*${ANCHOR_TRAILER}[ \\t]*:)`, 'gim'), '> ')
}

/** Pushes `refs`, each to the same name at `remote`; refused (an error) unless they fast-forward. */
export async function pushRefs(
  repo: GitRepository,
  remote: string,
  refs: readonly string[],
): Promise<void> {
  await repo.git(['push', '--quiet', '--no-verify', remote, ...refs.map((ref) => `${ref}:${ref}`)])
}

/**
 * Pushes `commit` to `branch` of `remote`, and `refs` (each to the same name there) with it;
 * each is refused (an error) unless it fast-forwards.
 */
export async function pushBranch(
  repo: GitRepository,
  remote: string,
  branch: string,
  commit: string,
  refs: readonly string[] = [],
): Promise<void> {
  await repo.git([
    'push',
    '--quiet',
    '--no-verify',
    remote,
    `${commit}:refs/heads/${branch}`,
    ...refs.map((ref) => `${ref}:${ref}`),
  ])
}

/** The remote a repository was to start from has no such branch. */
export class NoRemoteBranchError extends Error {
  constructor(
    readonly source: string,
    readonly branch: string,
  ) {
    super(`${source} has no branch ${branch} to start the repository from`)
  }
}

/** A bare copy of `source` (a path or URL) at `gitDir`, its `main` from `branch` there. */
export async function cloneBare(
  source: string,
  gitDir: string,
  branch: string,
  options: Omit<GitOptions, 'gitDir'> = {},
): Promise<GitRepository> {
  const repo = await initBare(gitDir, options)
  const tip = await fetchBranch(repo, source, branch)
  if (!tip) throw new NoRemoteBranchError(source, branch)
  await repo.moveRef('refs/heads/main', tip, null)
  return repo
}

/** Creates a bare repository at `gitDir` if there is none; returns it. */
export async function initBare(gitDir: string, options: Omit<GitOptions, 'gitDir'> = {}) {
  await new Promise<void>((resolve, reject) =>
    execFile('git', ['init', '--quiet', '--bare', '--initial-branch=main', gitDir], (error) =>
      error ? reject(error) : resolve(),
    ),
  )
  return new GitRepository({ gitDir, ...options })
}

/** A commit that reached main from outside the service, and the files it changed. */
export interface OutsideCommit {
  commit: string
  author: string
  email: string
  /** The files it changed against its first parent. */
  files: string[]
}

/** Control characters shown as the replacement character: a name is text, never a separator. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds.
const printable = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '\ufffd')

/**
 * What taking in `head` onto `base` brings: every file it changes since the two parted (one
 * diff from their merge base, whatever its commits: what `base` has and `head` lacks is not
 * taken in), and its commits, oldest first, each with its author and the files it changed
 * against its first parent; at most `limit` of those, the oldest dropped first (`more` counts
 * them). Parsed by commit ids, never by characters an author could put in a name.
 */
export async function commitsBetween(
  repo: GitRepository,
  base: string,
  head: string,
  limit = 500,
): Promise<{ files: string[]; commits: OutsideCommit[]; more: number }> {
  const files = (
    await repo.git(['diff', '--name-only', '--no-renames', '-z', `${base}...${head}`, '--'])
  )
    .toString('utf8')
    .split('\0')
    .filter(Boolean)
    .sort()
  const ids = (await repo.git(['rev-list', '--reverse', `${base}..${head}`]))
    .toString('utf8')
    .split('\n')
    .filter((id) => /^[0-9a-f]{40,64}$/.test(id))
  const kept = ids.slice(-limit)
  const commits: OutsideCommit[] = kept.map((commit) => ({
    commit,
    author: '',
    email: '',
    files: [],
  }))
  const byId = new Map(commits.map((commit) => [commit.commit, commit]))
  if (kept.length > 0) {
    // Names and addresses: three fields a commit, none of which can hold a NUL.
    const idents = (
      await repo.git(['log', '-z', '--no-walk=unsorted', '--format=%H%x00%an%x00%ae', ...kept])
    )
      .toString('utf8')
      .split('\0')
    for (let at = 0; at + 2 < idents.length; at += 3) {
      const found = byId.get(idents[at] ?? '')
      if (!found) continue
      found.author = printable(idents[at + 1] ?? '')
      found.email = printable(idents[at + 2] ?? '')
    }
    // Files: each commit's id, then its files, NUL-separated; a new record starts at an id.
    const changes = (
      await repo.git([
        'log',
        '-z',
        '--no-walk=unsorted',
        '--name-only',
        '--no-renames',
        '--diff-merges=first-parent',
        '--format=%H',
        ...kept,
      ])
    )
      .toString('utf8')
      .split('\0')
    let current: OutsideCommit | undefined
    for (const token of changes) {
      const name = token.replace(/^\n/, '')
      if (!name) continue
      const next = token.startsWith('\n') ? undefined : byId.get(name)
      if (next) current = next
      else current?.files.push(name)
    }
    for (const commit of commits) commit.files = [...new Set(commit.files)].sort()
  }
  return { files, commits, more: ids.length - kept.length }
}

/** The distinct author e-mails of the commits reachable from `head` and not from `base`. */
export async function authorsBetween(
  repo: GitRepository,
  base: string,
  head: string,
): Promise<string[]> {
  const output = await repo.git(['log', '--format=%ae', `${base}..${head}`])
  return [...new Set(output.toString('utf8').split('\n').filter(Boolean))].sort()
}

/** Who wrote `commit` (their address and name as git recorded them) and when (ISO 8601). */
export async function authorOf(
  repo: GitRepository,
  commit: string,
): Promise<{ email: string; name: string; at: string }> {
  const [email = '', name = '', at = ''] = (
    await repo.git(['log', '-1', '-z', '--format=%ae%x00%an%x00%aI', commit])
  )
    .toString('utf8')
    .split('\0')
  return { email: printable(email), name: printable(name), at: new Date(at).toISOString() }
}
