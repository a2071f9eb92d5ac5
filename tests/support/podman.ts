/**
 * The image and the Kubernetes manifests under podman, for `tests/containers/`: the image built
 * from the checkout (on the base `deploy/container/base.sh` makes, or `CONTAINER_BASE`), and
 * manifests played with `podman kube play --network host`, as ../shared/docs/CONTAINERS.md
 * says podman runs here (runc, `default_ulimits` at or below the machine's).
 */
import { execFile, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { parseAllDocuments, stringify } from 'yaml'
import { ROOT } from '../../src/engine/config'

const run = promisify(execFile)

/** podman is installed (CI installs Debian's, with runc). */
export const podmanInstalled = () =>
  spawnSync('podman', ['--version'], { stdio: 'ignore' }).status === 0

/** Runs podman; resolves with its standard output, fails with its standard error. */
export async function podman(args: string[], options: { timeoutMs?: number } = {}) {
  try {
    const { stdout } = await run('podman', args, {
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
      timeout: options.timeoutMs ?? 120_000,
    })
    return stdout
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string }
    throw new Error(`podman ${args.join(' ')}: ${stderr?.trim() || message}`)
  }
}

/**
 * What a container wrote, its standard error too (`podman logs` passes a container's two
 * streams on as its own): a program a setting stopped says why on standard error alone.
 */
export async function logsOf(container: string, tail?: number): Promise<string> {
  const args = ['logs', ...(tail ? ['--tail', String(tail)] : []), container]
  try {
    const { stdout, stderr } = await run('podman', args, { cwd: ROOT, timeout: 30_000 })
    return [stdout.trim(), stderr.trim()].filter(Boolean).join('\n') || '(nothing)'
  } catch (error) {
    return `podman ${args.join(' ')}: ${String(error)}`
  }
}

export const BASE_IMAGE = process.env.CONTAINER_BASE ?? 'localhost/lumora-node-base:26'
export const IMAGE = 'localhost/lumora-website:latest'
/** The stand-in for the official PostgreSQL image (tests/containers/postgres/). */
export const POSTGRES_IMAGE = 'localhost/lumora-postgres-standin:15'

/** The base, made without a registry (deploy/container/base.sh) when it is missing. */
export async function ensureBase(): Promise<void> {
  if (!(await podman(['images', '-q', BASE_IMAGE])).trim()) {
    await run(join(ROOT, 'deploy/container/base.sh'), [BASE_IMAGE], {
      cwd: ROOT,
      timeout: 600_000,
    })
  }
}

/** `podman build` as both images are built: Docker's format, the host's network, our base. */
const BUILD_ON_BASE = [
  'build',
  '--format',
  'docker',
  '--network',
  'host',
  '--build-arg',
  `BASE=${BASE_IMAGE}`,
]

/**
 * Builds the stand-in for `docker.io/library/postgres:15` that deploy/kubernetes/postgres.yaml
 * names (CI reaches no registry): Debian's PostgreSQL 15 on the same base.
 */
export async function buildPostgresStandIn(): Promise<void> {
  await ensureBase()
  const folder = join(ROOT, 'tests', 'containers', 'postgres')
  await podman(
    [...BUILD_ON_BASE, '-t', POSTGRES_IMAGE, '-f', join(folder, 'Containerfile'), folder],
    {
      timeoutMs: 600_000,
    },
  )
}

/**
 * The certificate authority this machine reaches the npm registry with: npm's `cafile`, else the
 * one Node.js is given (`NODE_EXTRA_CA_CERTS`), else OpenSSL's (`SSL_CERT_FILE`). npm's answer
 * alone is not enough: its global configuration lives beside the Node.js it runs on, so under
 * another Node.js (CI puts the pinned one first on the PATH) a `cafile` set there reads `null`,
 * while that Node.js still trusts the registry through the environment.
 */
export function registryAuthority(): string | undefined {
  const npm = spawnSync('npm', ['config', 'get', 'cafile'], { encoding: 'utf8' }).stdout?.trim()
  return [npm, process.env.NODE_EXTRA_CA_CERTS, process.env.SSL_CERT_FILE].find(
    (file): file is string => Boolean(file) && file !== 'null' && existsSync(file as string),
  )
}

/**
 * Builds the image from the checkout, on the base made without a registry when it is missing;
 * npm reaches its registry with the certificate authority the machine's npm uses.
 */
export async function buildImage(): Promise<{ seconds: number; bytes: number }> {
  const started = performance.now()
  await ensureBase()
  const cafile = registryAuthority()
  const revision = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' })
  await podman(
    [
      ...BUILD_ON_BASE,
      '--build-arg',
      `REVISION=${revision.stdout.trim() || 'unknown'}`,
      ...(cafile ? ['--secret', `id=npm-ca,src=${cafile}`] : []),
      '-t',
      IMAGE,
      '-f',
      'Containerfile',
      '.',
    ],
    { timeoutMs: 900_000 },
  )
  const bytes = Number(await podman(['image', 'inspect', IMAGE, '--format', '{{.Size}}']))
  return { seconds: (performance.now() - started) / 1000, bytes }
}

// biome-ignore lint/suspicious/noExplicitAny: Kubernetes objects, read and changed as plain data
export type KubeObject = Record<string, any>

/** The objects of a manifest under `deploy/kubernetes/`. */
export async function readManifest(name: string): Promise<KubeObject[]> {
  const { readFile } = await import('node:fs/promises')
  const text = await readFile(join(ROOT, 'deploy', 'kubernetes', name), 'utf8')
  return parseAllDocuments(text).map((document) => document.toJS() as KubeObject)
}

/** Plays `objects` (written to `file`) on the host's network; resolves once podman has. */
export async function play(file: string, objects: KubeObject[]): Promise<void> {
  await writeFile(file, objects.map((object) => stringify(object)).join('---\n'))
  await podman(['kube', 'play', '--network', 'host', file], { timeoutMs: 180_000 })
}

/** Stops and removes what `file` made (its volumes stay, as a claim's would). */
export async function down(file: string): Promise<void> {
  if (existsSync(file)) await podman(['kube', 'down', file]).catch(() => undefined)
}

/** The name podman gives the container `container` of a Deployment's or Pod's pod. */
export const containerOf = (object: KubeObject, container: string) =>
  `${object.metadata.name}${object.kind === 'Deployment' ? '-pod-0' : ''}-${container}`

/**
 * The most memory a container has used since it started, in MiB: its cgroup's peak (v2's
 * `memory.peak`, v1's `memory.max_usage_in_bytes`).
 */
export async function peakMemoryMiB(container: string): Promise<number> {
  for (const file of [
    '/sys/fs/cgroup/memory.peak',
    '/sys/fs/cgroup/memory/memory.max_usage_in_bytes',
  ]) {
    const bytes = Number(await podman(['exec', container, 'cat', file]).catch(() => ''))
    if (bytes > 0) return bytes / 2 ** 20
  }
  return Number.NaN
}
