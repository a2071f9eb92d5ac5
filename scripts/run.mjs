/**
 * Runs one of the project's TypeScript programs (`src/programs/<name>.ts`) as plain JavaScript:
 * `node scripts/run.mjs <name> [arguments]`, as the npm script of the same name does.
 *
 * Each program is compiled with Rolldown once per version of the code (a hash of `src/` and
 * the lockfile) into `.cache/bin/{hash}/{program}/`, with the workers it may start, then
 * imported; `node scripts/run.mjs compile [name…]` compiles them all, or those named (an image
 * compiles all at its build; a program started before it was compiled is compiled by a process
 * of its own first).
 * A TypeScript loader (tsx) would transpile on the fly, but its module hooks slow every import, the libraries' included: Vite
 * loads in 0.8 s through them and in 0.17 s without. Compiling takes a fraction of a second and
 * happens only after the code changed.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** Every program is a file of `src/programs/`, named as the npm script that runs it. */
const PROGRAMS = Object.fromEntries(
  readdirSync(join(ROOT, 'src', 'programs'))
    .filter((file) => file.endsWith('.ts'))
    .map((file) => [file.slice(0, -'.ts'.length), join('src', 'programs', file)]),
)
/**
 * Worker threads and processes the programs start, compiled beside them: a program finds them
 * in the folder `SITE_PROGRAMS_DIR` names (run without this script, as in tests, the PDF writer
 * works in-thread, the card renderer runs its source, `npm start` builds the site and the
 * publishing service bundles its editor in their own process).
 */
const WORKERS = {
  'pdf-worker': 'src/engine/pdf/worker.ts',
  'card-worker': 'src/engine/assets/card-worker.ts',
  'twins-worker': 'src/engine/assets/twins-worker.ts',
  'build-worker': 'src/engine/child/worker.ts',
  'editor-worker': 'src/publishing/editor/bundle-worker.ts',
}
/** Compiled versions kept (switching branches back and forth). */
const KEPT_VERSIONS = 3

const [name, ...args] = process.argv.slice(2)
if (!name || !(name in PROGRAMS || name === 'compile')) {
  console.error(
    `usage: node scripts/run.mjs ${Object.keys(PROGRAMS).join('|')}|compile [arguments]`,
  )
  process.exit(2)
}

function codeHash() {
  const hash = createHash('sha256')
  const files = readdirSync(join(ROOT, 'src'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()
  for (const file of [...files, join(ROOT, 'package-lock.json'), fileURLToPath(import.meta.url)]) {
    hash.update(file.slice(ROOT.length))
    hash.update(readFileSync(file))
  }
  return hash.digest('hex').slice(0, 16)
}

// RUN_BIN_DIR (inside the project, so the programs resolve node_modules): the bench's cold
// builds compile into an empty one, as on a fresh clone.
const binDir = resolve(ROOT, process.env.RUN_BIN_DIR ?? join('.cache', 'bin'))
const version = join(binDir, codeHash())

/**
 * Compiles `program` with the workers into `version/program/` unless it is there: only the
 * program asked for, since compiling all of them took four times as long on a fresh clone
 * (the editors' service and its screens are most of the code). Compiled beside, then renamed
 * into place: programs started together never see half of it.
 */
async function compile(program) {
  const target = join(version, program)
  if (existsSync(target)) return target
  const { build } = await import('rolldown')
  const staging = `${target}.${process.pid}`
  await build({
    cwd: ROOT,
    input: Object.fromEntries(
      Object.entries({ [program]: PROGRAMS[program], ...WORKERS }).map(([key, file]) => [
        key,
        join(ROOT, file),
      ]),
    ),
    platform: 'node',
    // Libraries load from node_modules as they are; only our own modules are compiled.
    external: (id) => !id.startsWith('.') && !isAbsolute(id),
    transform: { jsx: 'react-jsx' },
    logLevel: 'warn',
    output: {
      dir: staging,
      format: 'esm',
      entryFileNames: '[name].mjs',
      chunkFileNames: 'chunks/[name]-[hash].mjs',
      sourcemap: true,
    },
  })
  try {
    renameSync(staging, target)
  } catch {
    // another process compiled the same version first
    rmSync(staging, { recursive: true, force: true })
  }
  return target
}

if (!existsSync(version)) {
  mkdirSync(version, { recursive: true })
  const versions = readdirSync(binDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^[0-9a-f]{16}$/.test(entry.name))
    .map((entry) => join(binDir, entry.name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
  for (const old of versions.slice(KEPT_VERSIONS)) rmSync(old, { recursive: true, force: true })
}

// `compile`: every program (or those named), as an image does before it is started with a
// read-only file system.
if (name === 'compile') {
  const named = args.filter((program) => program in PROGRAMS)
  for (const program of named.length > 0 ? named : Object.keys(PROGRAMS)) await compile(program)
  process.exit(0)
}

// A program not compiled yet is compiled by a process of its own: Rolldown's threads and
// allocator kept some 180 MB that a server importing the program after it never gave back.
const compiled = join(version, name)
if (!existsSync(compiled)) {
  const compiling = spawnSync(process.execPath, [fileURLToPath(import.meta.url), 'compile', name], {
    stdio: 'inherit',
  })
  if (compiling.status !== 0 || !existsSync(compiled)) process.exit(compiling.status || 1)
}

// The built site is rendered by React's production build: its development build checks every
// element and property and made rendering pages twice as slow. The dev server keeps it.
if (name !== 'dev') process.env.NODE_ENV ??= 'production'

// UMASK (octal, e.g. 0002): the files and folders the program makes. The image sets 0002, so
// that its group (0) may write what one user id wrote, as OpenShift's next id must.
if (process.env.UMASK) {
  const mask = Number.parseInt(process.env.UMASK, 8)
  if (!/^0?[0-7]{3}$/.test(process.env.UMASK) || Number.isNaN(mask)) {
    console.error(`UMASK: must be an octal mask such as 0022 or 0002; got "${process.env.UMASK}"`)
    process.exit(78)
  }
  process.umask(mask)
}

process.env.SITE_PROGRAMS_DIR = compiled
const program = join(compiled, `${name}.mjs`)
process.argv = [process.argv[0] ?? 'node', program, ...args]
await import(pathToFileURL(program).href)
