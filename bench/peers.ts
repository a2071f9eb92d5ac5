/**
 * The build of 120 generated pages (`bench/generate-content.ts`) against Astro 7's build of the
 * same pages from the same content store (`bench/peers/astro/`, a yardstick), in turn on the
 * same machine and the same Node (the project's, from `node_modules`), in two pairs:
 *
 * - code compiled: our build with an empty build cache, the programs and the site's bundles
 *   made before (`.cache/bin/`), against `astro build` with its caches kept, its output removed:
 *   a rebuild with the toolchain warm and no build output to reuse;
 * - fresh clone: our build with nothing made before (programs, bundles and build cache in an
 *   empty private folder, `RUN_BIN_DIR` and `BUILD_CACHE_DIR`), against `astro build` with its
 *   caches removed (`.astro/`, `node_modules/.astro/`, `node_modules/.vite/`): the first build
 *   on a new checkout after the install.
 *
 * The peer is installed once into `bench/out/peer-astro/` (a copy of `bench/peers/astro/`, then
 * `npm ci`; again when its lockfile changes), and both sides build in `bench/out/`, on the same
 * disk. Before timing, each command runs once and the two sites are held to carry the same
 * pages with the same titles.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, realpathSync } from 'node:fs'
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { directorySize } from './builds'
import { generateContent } from './generate-content'
import { type Pair, pairedRun, pairsUnavailable } from './pairs'

const ROOT = resolve(import.meta.dirname, '..')
const OUT = join(ROOT, 'bench', 'out')
const PEER_SOURCE = join(ROOT, 'bench', 'peers', 'astro')
const PEER = join(OUT, 'peer-astro')
const CONTENT = join(OUT, 'peer-content')
/** What a build or an install leaves in the peer's folder: never copied from its source. */
const PEER_MADE = new Set(['node_modules', 'dist', '.astro'])

export interface PeerPairs {
  node: string
  /** Our build (A) against Astro's (B) with the code compiled, and on a fresh clone. */
  codeCompiled: Pair
  freshClone: Pair
  /** The two sites' outputs, as the last timed run left them. */
  outputs: { ours: Output; astro: Output }
}

interface Output {
  pages: number
  files: number
  megabytes: number
}

/** The folder of the Node the project pins (`node_modules/.bin/node`), else this one's. */
function nodeFolder(): string {
  const pinned = join(ROOT, 'node_modules', '.bin', 'node')
  return dirname(existsSync(pinned) ? realpathSync(pinned) : process.execPath)
}

/** Copies the peer's source over its installed copy; installs it when its lockfile changed. */
async function installPeer(path: string): Promise<void> {
  const lock = await readFile(join(PEER_SOURCE, 'package-lock.json'), 'utf8')
  const installed = await readFile(join(PEER, 'package-lock.json'), 'utf8').catch(() => '')
  const fresh = lock !== installed || !existsSync(join(PEER, 'node_modules'))
  if (fresh) await rm(PEER, { recursive: true, force: true })
  await mkdir(PEER, { recursive: true })
  for (const name of await readdir(PEER)) {
    if (!PEER_MADE.has(name)) await rm(join(PEER, name), { recursive: true, force: true })
  }
  await cp(PEER_SOURCE, PEER, {
    recursive: true,
    filter: (source) => !PEER_MADE.has(relative(PEER_SOURCE, source).split('/')[0] ?? ''),
  })
  if (fresh) {
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], {
      cwd: PEER,
      env: { ...process.env, PATH: path },
      stdio: ['ignore', 'ignore', 'inherit'],
    })
  }
}

/** A shell script of the commands, in `bench/out/`, made executable; its path. */
async function script(name: string, lines: string[]): Promise<string> {
  const file = join(OUT, `${name}.sh`)
  await writeFile(file, `#!/bin/bash\nset -e\n${lines.join('\n')}\n`, { mode: 0o755 })
  return file
}

/** The `index.html` pages of a built site below `en/`, `de/` and `blog/`, with their `<h1>`. */
async function titles(dist: string): Promise<Map<string, string>> {
  const found = new Map<string, string>()
  const entries = await readdir(dist, { recursive: true, withFileTypes: true })
  for (const entry of entries) {
    const file = relative(dist, join(entry.parentPath, entry.name))
    if (!entry.isFile() || !/^(en|de|blog)\/(.+\/)?index\.html$/.test(file)) continue
    const html = await readFile(join(dist, file), 'utf8')
    const h1 = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1] ?? ''
    found.set(file, h1.replace(/<[^>]+>/g, '').trim())
  }
  return found
}

/** What differs between the two sites' pages and titles, one line each. */
async function differences(ours: string, astro: string): Promise<string[]> {
  const [a, b] = [await titles(ours), await titles(astro)]
  const problems: string[] = []
  for (const [page, title] of a) {
    if (!b.has(page)) problems.push(`${page}: not in Astro's site`)
    else if (b.get(page) !== title) problems.push(`${page}: "${title}" against "${b.get(page)}"`)
  }
  for (const page of b.keys()) if (!a.has(page)) problems.push(`${page}: only in Astro's site`)
  return problems
}

async function output(dist: string): Promise<Output> {
  const { bytes, files } = await directorySize(dist)
  const pages = (await readdir(dist, { recursive: true })).filter((file) =>
    file.endsWith('.html'),
  ).length
  return { pages, files, megabytes: Math.round(bytes / 1024 / 102.4) / 10 }
}

/** The two pairs, or why they could not run. */
export async function againstAstro(runs: number): Promise<PeerPairs | string> {
  const unavailable = pairsUnavailable()
  if (unavailable) return unavailable
  const node = nodeFolder()
  // The pinned Node first; no folder of npm's or of this project's node_modules, so that each
  // side finds its tools in its own.
  const path = [node, ...(process.env.PATH ?? '').split(':')]
    .filter((folder, index) => index === 0 || (folder !== '' && !folder.includes('node_modules')))
    .join(':')
  await installPeer(path)
  await generateContent(CONTENT, 120)

  // Every command builds from the same store, with the same Node first on its PATH, through
  // `npm run build` (npm's own start-up on both sides), its output thrown away.
  const env = `PATH='${path}' CONTENT_DIR='${CONTENT}'`
  // Ours without compressed twins: Astro writes none (a host compresses its pages), so the two
  // builds do the same work; the twins' own cost is the builds' part (`bench/builds.ts`).
  const ours = (name: string, extra: string) =>
    `cd '${ROOT}' && ${env} OUT_DIR='${join(OUT, name, 'dist')}' BUILD_TWINS=off ${extra} npm run build >/dev/null 2>&1`
  const astro = `cd '${PEER}' && ${env} ASTRO_TELEMETRY_DISABLED=1 npm run build >/dev/null 2>&1`
  const oursCompiled = await script('peer-ours-compiled', [
    `rm -rf '${join(OUT, 'peer-ours')}'`,
    ours('peer-ours', `BUILD_CACHE_DIR='${join(OUT, 'peer-ours', 'cache')}'`),
  ])
  const oursFresh = await script('peer-ours-fresh', [
    `rm -rf '${join(OUT, 'peer-ours-fresh')}'`,
    ours(
      'peer-ours-fresh',
      `BUILD_CACHE_DIR='${join(OUT, 'peer-ours-fresh', 'cache')}' RUN_BIN_DIR='${join(OUT, 'peer-ours-fresh', 'bin')}'`,
    ),
  ])
  const astroCompiled = await script('peer-astro-compiled', [
    `rm -rf '${join(PEER, 'dist')}'`,
    astro,
  ])
  const astroFresh = await script('peer-astro-fresh', [
    `rm -rf ${['dist', '.astro', 'node_modules/.astro', 'node_modules/.vite'].map((name) => `'${join(PEER, name)}'`).join(' ')}`,
    astro,
  ])

  // Once each before timing: both must build, and build the same pages.
  for (const file of [oursCompiled, astroCompiled]) execFileSync(file)
  const problems = await differences(join(OUT, 'peer-ours', 'dist'), join(PEER, 'dist'))
  if (problems.length > 0) {
    return `the two sites differ (${problems.length}):\n  ${problems.slice(0, 10).join('\n  ')}`
  }
  const codeCompiled = pairedRun(oursCompiled, astroCompiled, runs)
  const outputs = {
    ours: await output(join(OUT, 'peer-ours', 'dist')),
    astro: await output(join(PEER, 'dist')),
  }
  const freshClone = pairedRun(oursFresh, astroFresh, runs)
  const version = execFileSync(join(node, 'node'), ['--version'], { encoding: 'utf8' }).trim()
  return { node: version, codeCompiled, freshClone, outputs }
}
