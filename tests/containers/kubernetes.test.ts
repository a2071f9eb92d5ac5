/**
 * The image and `deploy/kubernetes/` as an operator runs them, tried with podman: the image is
 * built from the checkout on a base made without a registry, the migration Job runs as the
 * tables' owner, then two replicas of the site with the forms service and two of the publishing
 * service start from the manifests, on the PostgreSQL postgres.yaml makes and one shared
 * volume, each in a read-only root file system as the image's non-root user. Everything is
 * checked from outside, over HTTP.
 *
 * Where podman does not do what Kubernetes does, the test does it and says so here:
 * - podman 4.3 ignores Services, and a Deployment's replicas on the host's network would bind
 *   one port: each Deployment is played with one replica, and the second replica is the same
 *   Deployment renamed, on the next port. nginx, with the block `npm run nginx-config` writes,
 *   stands in front of the site replicas as the Service (its `/api/` upstream lists both).
 * - podman 4.3 does not take Secret objects (its `secretKeyRef` reads podman's own secrets in
 *   another format): the test writes the values in place of each `secretKeyRef`.
 * - podman 4.3 has no Jobs: the Job's pod template is played as a Pod that runs once.
 * - postgres.yaml is played on a stand-in for the official image (CI reaches no registry:
 *   tests/containers/postgres/), its StatefulSet as its one Pod, on a port of its own (the
 *   host's PostgreSQL has 5432); podman has no `fsGroup`, so its `emptyDir`s and ConfigMap
 *   volume are folders of the test, the image's user's.
 * - Containers declare no ports to podman: on the host's network it refuses port mappings.
 * - The test's own settings, added to every container: host names that reach the test's
 *   servers on the loopback (PostgreSQL, SMTP, the bank's git remote as a mounted folder),
 *   `HOST=127.0.0.1` (the manifests listen on every address, as a pod must), no limits per
 *   client (every request comes from nginx) and a two-second mail lease.
 * Containers use the host's loopback only: no bridge network, no private-range address.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { chown, mkdir, readdir, readlink, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import type { Database } from '../../src/database/database'
import { openDatabase } from '../../src/database/open'
import { ROOT } from '../../src/engine/config'
import { SESSION_COOKIE } from '../../src/publishing/http/app'
import { startSession } from '../../src/publishing/people/people'
import { CURRENT } from '../../src/shared/release-layout'
import { appliedManifests, asTested, documentedCommands, roleOf } from '../support/deploying-doc'
import { type Inbox, signUp, startSmtp, until } from '../support/forms'
import { freePort } from '../support/free-port'
import { type NginxServer, nginxInstalled, startNginx } from '../support/nginx'
import { ada, addPeople, paul, rita } from '../support/people'
import {
  buildImage,
  buildPostgresStandIn,
  containerOf,
  down,
  ensureBase,
  IMAGE,
  type KubeObject,
  logsOf,
  POSTGRES_IMAGE,
  peakMemoryMiB,
  play,
  podman,
  podmanInstalled,
  readManifest,
} from '../support/podman'
import { createSchema } from '../support/schema'
import { removeFolder, temporaryFolder } from '../support/temporary-folder'

const OWNER_URL = process.env.TEST_DATABASE_URL
const SERVICE_URL = process.env.TEST_DATABASE_SERVICE_URL ?? OWNER_URL
/** The image's user: what a claim's files belong to after podman made the volume. */
const IMAGE_USER = 10001
const VOLUME = 'lumora-data'
const IMPRINT = 'content/en/pages/imprint.yaml'
/** The newsletter's consent version on the real site: a sign-up names the one it saw. */
const NEWSLETTER = parse(
  readFileSync(join(ROOT, 'content/forms/lists/newsletter.yaml'), 'utf8'),
) as { consentVersion: string }
const newsletterSignUp = (email: string) =>
  JSON.stringify(signUp(email, { version: NEWSLETTER.consentVersion }))

let dir = ''
let database: Database | undefined
let inbox: Inbox | undefined
let nginx: NginxServer | undefined
const played: string[] = []
/** The two site replicas' and the two publishing replicas' ports. */
const site: number[] = []
const publishing: number[] = []
let cmsUrl = ''
let nginxPort = 0
/** Objects of a manifest with the image, the test's values and no ports (set in beforeAll). */
let preparedObjects: (objects: KubeObject[]) => KubeObject[] = (objects) => objects
const cookies: Record<string, string> = {}
/** The manifests the suite played or read, in its order (deploying.md's is checked against it). */
const manifestsUsed: string[] = []
const readPlayedManifest = (name: string) => {
  manifestsUsed.push(name)
  return readManifest(name)
}
const figures: Record<string, string> = {}

/** The container's environment with `values` set (added, or in place of a reference). */
function setEnv(container: KubeObject, values: Record<string, string>) {
  const env: KubeObject[] = container.env ?? []
  for (const [name, value] of Object.entries(values)) {
    const found = env.find((entry) => entry.name === name)
    if (found) {
      delete found.valueFrom
      found.value = value
    } else env.push({ name, value })
  }
  container.env = env
}

/** Every `secretKeyRef` replaced by its value, every `configMapKeyRef` too (podman 4.3). */
function resolveReferences(container: KubeObject, secrets: KubeObject, config: KubeObject) {
  for (const entry of container.env ?? []) {
    const secret = entry.valueFrom?.secretKeyRef
    const map = entry.valueFrom?.configMapKeyRef
    if (secret) entry.value = secrets.stringData[secret.key]
    else if (map) entry.value = config.data[map.key]
    else continue
    delete entry.valueFrom
  }
}

/** The Deployment as replica `index` on `port`, with the test's settings. */
function replica(
  deployment: KubeObject,
  index: number,
  portName: string,
  port: number,
  extra: Record<string, string>,
): KubeObject {
  const copy = structuredClone(deployment)
  copy.spec.replicas = 1
  if (index > 0) copy.metadata.name = `${deployment.metadata.name}-${index + 1}`
  const [container] = copy.spec.template.spec.containers
  setEnv(container, { [portName]: String(port), ...extra })
  for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe']) {
    if (container[probe]?.httpGet) container[probe].httpGet.port = port
  }
  return copy
}

/** Waits for `/readyz` on `port`; fails with the end of every container's log. */
async function ready(port: number, timeoutMs = 120_000) {
  try {
    await until(
      async () =>
        (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status === 200,
      timeoutMs,
      250,
    )
  } catch {
    const names = (await podman(['ps', '-a', '--format', '{{.Names}}'])).split('\n')
    const logs = await Promise.all(
      names
        .filter((name) => name.startsWith('lumora-'))
        .map(async (name) => `${name}:\n${await logsOf(name, 15)}`),
    )
    throw new Error(`nothing is ready on port ${port}\n${logs.join('\n')}`)
  }
}

/** A request to publishing replica `index` as `email`, from the editor's page. */
async function cms(index: number, email: string, action: string, params: object) {
  const response = await fetch(`http://127.0.0.1:${publishing[index]}/api/cms`, {
    method: 'POST',
    headers: {
      cookie: cookies[email] as string,
      origin: cmsUrl,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ action, params: { branch: 'main', ...params } }),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/** Saves the imprint's English title, moves it to review and approves it; returns its version. */
async function approvedImprint(index: number, title: string): Promise<string> {
  const { readFile } = await import('node:fs/promises')
  const text = (await readFile(join(ROOT, IMPRINT), 'utf8')).replace(
    /^title: .*$/m,
    `title: ${title}`,
  )
  const saved = await cms(index, ada.email, 'persistEntry', {
    version: null,
    dataFiles: [{ path: 'content/pages/en/imprint.yaml', slug: 'imprint', raw: text }],
    assets: [],
    options: { collectionName: 'pages', useWorkflow: true },
  })
  expect(saved.status, JSON.stringify(saved.body)).toBe(200)
  const version = saved.body.version as string
  for (const [who, status] of [
    [ada.email, 'pending_review'],
    [rita.email, 'pending_publish'],
  ] as const) {
    const moved = await cms(index, who, 'updateUnpublishedEntryStatus', {
      collection: 'pages',
      slug: 'imprint',
      newStatus: status,
      version,
    })
    expect(moved.status, JSON.stringify(moved.body)).toBe(200)
  }
  return version
}

const publish = (index: number, version: string) =>
  cms(index, paul.email, 'publishUnpublishedEntry', {
    collection: 'pages',
    slug: 'imprint',
    version,
  })

const imprintTitle = async (port: number) => {
  const html = await (await fetch(`http://127.0.0.1:${port}/en/imprint/`)).text()
  return /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1]
}

async function volumePath(): Promise<string> {
  return (await podman(['volume', 'inspect', VOLUME, '--format', '{{.Mountpoint}}'])).trim()
}

/** The volume podman makes for postgres.yaml's claim template (`data`) of its one replica. */
const POSTGRES_DATA = 'lumora-postgres-data'

/**
 * Plays postgres.yaml on the stand-in image, as an operator trying the product would apply it,
 * on `port` of the loopback (the host's own PostgreSQL has 5432), and waits until its two roles
 * can sign in. Where podman 4.3 does not do what Kubernetes does, the test does it: the
 * StatefulSet is played as its one Pod with the claim template's volume; the Secret's values
 * are written in place (with the test's passwords); the ConfigMap's script and the `emptyDir`s
 * are folders of the test, the image's user's (podman has no `fsGroup`).
 */
async function playPostgres(port: number): Promise<{ ownerUrl: string; serviceUrl: string }> {
  const objects = await readPlayedManifest('postgres.yaml')
  const byKind = (kind: string) => {
    const found = objects.find((object) => object.kind === kind)
    if (!found) throw new Error(`postgres.yaml holds no ${kind}`)
    return found
  }
  const [secret, init, statefulSet] = ['Secret', 'ConfigMap', 'StatefulSet'].map(byKind) as [
    KubeObject,
    KubeObject,
    KubeObject,
  ]
  const passwords: Record<string, string> = {
    POSTGRES_PASSWORD: 'superuser-of-the-test',
    LUMORA_OWNER_PASSWORD: 'owner-of-the-test',
    LUMORA_SERVICE_PASSWORD: 'service-of-the-test',
  }
  expect(Object.keys(secret.stringData).sort()).toEqual(Object.keys(passwords).sort())
  const spec = structuredClone(statefulSet.spec.template.spec)
  const [container] = spec.containers
  container.image = POSTGRES_IMAGE
  delete container.ports
  for (const entry of container.env) {
    const key = entry.valueFrom?.secretKeyRef?.key
    if (!key) continue
    entry.value = passwords[key]
    delete entry.valueFrom
  }
  // The test's own: a port of its own, and the loopback only.
  container.env.push({ name: 'PGPORT', value: String(port) })
  container.args = ['postgres', '-c', 'listen_addresses=127.0.0.1']
  for (const volume of spec.volumes) {
    const folder = join(dir, `postgres-${volume.name}`)
    await mkdir(folder, { recursive: true })
    if (volume.configMap) {
      for (const [name, text] of Object.entries(init.data as Record<string, string>)) {
        await writeFile(join(folder, name), text)
      }
      delete volume.configMap
    } else delete volume.emptyDir
    await chown(folder, 999, 999)
    volume.hostPath = { path: folder, type: 'Directory' }
  }
  await podman(['volume', 'rm', '--force', POSTGRES_DATA])
  for (const template of statefulSet.spec.volumeClaimTemplates) {
    spec.volumes.push({
      name: template.metadata.name,
      persistentVolumeClaim: { claimName: `lumora-postgres-${template.metadata.name}` },
    })
  }
  const pod: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${statefulSet.metadata.name}-0`,
      labels: statefulSet.spec.template.metadata.labels,
    },
    spec,
  }
  const file = join(dir, 'postgres.yaml')
  played.push(file)
  const started = performance.now()
  await play(file, [pod])
  const url = (role: string, password: string) =>
    `postgres://${role}:${password}@127.0.0.1:${port}/lumora`
  const ownerUrl = url('lumora_owner', passwords.LUMORA_OWNER_PASSWORD as string)
  const serviceUrl = url('lumora_service', passwords.LUMORA_SERVICE_PASSWORD as string)
  await until(
    async () => {
      for (const each of [ownerUrl, serviceUrl]) {
        const opened = await openDatabase({ url: each }).catch(() => undefined)
        if (!opened) return false
        await opened.close()
      }
      return true
    },
    120_000,
    500,
  ).catch(async (error: unknown) => {
    throw new Error(`${error}\n${await logsOf(`${pod.metadata.name}-postgres`)}`)
  })
  figures.postgres = `its two roles sign in ${((performance.now() - started) / 1000).toFixed(1)} s after play`
  return { ownerUrl, serviceUrl }
}

describe.skipIf(!podmanInstalled() || !OWNER_URL || !nginxInstalled())(
  'the image and the Kubernetes manifests, played by podman',
  () => {
    beforeAll(async () => {
      await ensureBase()
      const [build] = await Promise.all([buildImage(), buildPostgresStandIn()])
      figures.image = `${Math.round(build.bytes / 1e6)} MB, built in ${Math.round(build.seconds)} s`
      dir = await temporaryFolder('kubernetes-')
      await chown(dir, IMAGE_USER, 0)
      // PostgreSQL as postgres.yaml makes it, for trying the product: the services' database.
      const postgresPort = await freePort()
      const postgres = await playPostgres(postgresPort)
      database = await openDatabase({ url: postgres.ownerUrl })
      inbox = await startSmtp()
      // The bank's repository: a bare clone of this checkout, the image's user's own (git
      // refuses a repository another user owns).
      const remote = join(dir, 'bank.git')
      execFileSync('git', ['clone', '--quiet', '--bare', '--no-local', ROOT, remote])
      execFileSync('chown', ['-R', `${IMAGE_USER}:0`, remote])

      for (let index = 0; index < 2; index++) {
        site.push(await freePort())
        publishing.push(await freePort())
      }
      nginxPort = await freePort()
      const siteUrl = `http://127.0.0.1:${nginxPort}`
      cmsUrl = `http://localhost:${publishing[0]}`

      const [secrets] = await readPlayedManifest('secrets.yaml')
      const [config] = await readPlayedManifest('config.yaml')
      if (!config || !secrets) throw new Error('config.yaml and secrets.yaml must hold one object')
      // The claim, new: podman makes its volume, the first container's user's.
      await podman(['volume', 'rm', '--force', VOLUME])
      const claims = await readPlayedManifest('storage.yaml')
      expect(claims.map((claim) => claim.metadata.name)).toEqual([VOLUME])
      const storageFile = join(dir, 'storage.yaml')
      played.push(storageFile)
      await play(storageFile, claims)
      Object.assign(config.data, {
        SITE_URL: siteUrl,
        CMS_URL: cmsUrl,
        PUBLISHING_REMOTE: '/srv/bank.git',
        PUBLISHING_PUSH: 'off',
        TRUST_PROXY: '127.0.0.1',
      })
      Object.assign(secrets.stringData, {
        DATABASE_URL: postgres.serviceUrl,
        DATABASE_OWNER_URL: postgres.ownerUrl,
        AUDIT_KEY: `k1:${'ab'.repeat(32)}`,
        SMTP_URL: inbox.url,
        METRICS_TOKEN: 'm'.repeat(40),
        CMS_METRICS_TOKEN: 'c'.repeat(40),
        PUBLISHING_REMOTE_TOKEN: 'not-used-with-a-folder',
      })
      const tests = {
        HOST: '127.0.0.1',
        CMS_HOST: '127.0.0.1',
        FORMS_RATE_LIMIT: '0',
        CONFIRMATION_MAILS_PER_HOUR: '0',
        CONFIRMATION_MAILS_PER_CLIENT: '0',
        MAIL_LEASE_SECONDS: '2',
        SCHEDULE_CHECK_SECONDS: '1',
      }
      preparedObjects = (objects: KubeObject[]) => {
        for (const object of objects) {
          const spec = object.kind === 'Pod' ? object.spec : object.spec?.template?.spec
          for (const container of spec?.containers ?? []) {
            container.image = IMAGE
            resolveReferences(container, secrets, config)
            // On the host's network a container listens on the host's ports as it is: podman
            // refuses port mappings there.
            delete container.ports
          }
        }
        return objects
      }

      // The migrations first, as the Job would run them.
      const [job] = await readPlayedManifest('migrate.yaml')
      if (!job) throw new Error('migrate.yaml holds no Job')
      const migrate: KubeObject = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: job.metadata.name, labels: job.spec.template.metadata.labels },
        spec: { ...job.spec.template.spec, restartPolicy: 'Never' },
      }
      const migrateFile = join(dir, 'migrate.yaml')
      played.push(migrateFile)
      // As the Job runs it: once more after a failure, up to its backoffLimit. A failure
      // before the last try is printed, so that a run shows what Kubernetes would retry.
      const migrator = containerOf(migrate, 'migrate')
      const failures: string[] = []
      let exit = ''
      for (let attempt = 0; attempt <= job.spec.backoffLimit && exit !== '0'; attempt++) {
        if (attempt > 0) await down(migrateFile)
        await play(migrateFile, preparedObjects([migrate]))
        exit = (await podman(['wait', migrator], { timeoutMs: 120_000 })).trim()
        if (exit !== '0')
          failures.push(`try ${attempt + 1}, exit ${exit}: ${await logsOf(migrator)}`)
      }
      if (failures.length) console.log(`migrate failed before it ran:\n${failures.join('\n')}`)
      expect(exit, failures.join('\n')).toBe('0')

      const [publishingDeployment] = await readPlayedManifest('publishing.yaml')
      const [siteDeployment] = await readPlayedManifest('site.yaml')
      if (!publishingDeployment || !siteDeployment) throw new Error('a Deployment is missing')
      // The bank's remote, mounted where PUBLISHING_REMOTE says.
      const spec = publishingDeployment.spec.template.spec
      spec.volumes.push({ name: 'bank', hostPath: { path: remote, type: 'Directory' } })
      spec.containers[0].volumeMounts.push({ name: 'bank', mountPath: '/srv/bank.git' })
      const deployments = [
        ...[0, 1].map((index) =>
          replica(publishingDeployment, index, 'CMS_PORT', publishing[index] as number, tests),
        ),
        ...[0, 1].map((index) =>
          replica(siteDeployment, index, 'PORT', site[index] as number, tests),
        ),
      ]
      // The first publishing replica makes the repository and the tables; the others find them.
      const started = performance.now()
      for (const [index, deployment] of deployments.entries()) {
        const file = join(dir, `deployment-${index}.yaml`)
        played.push(file)
        await play(file, preparedObjects([deployment]))
        if (index === 0) {
          await ready(publishing[0] as number)
          figures['publishing ready'] = `${((performance.now() - started) / 1000).toFixed(1)} s`
          // Its first release, of main as it is: the site replicas serve it, and build nothing.
          const current = join(await volumePath(), 'releases', CURRENT)
          await until(async () => Boolean(await readlink(current).catch(() => '')), 120_000, 250)
          figures['first release'] = `${((performance.now() - started) / 1000).toFixed(1)} s`
        }
      }
      for (const port of [...publishing, ...site]) await ready(port)
      figures['all four ready'] = `${((performance.now() - started) / 1000).toFixed(1)} s`

      await addPeople(database, [ada, rita, paul])
      for (const { email } of [ada, rita, paul]) {
        cookies[email] = `${SESSION_COOKIE}=${(await startSession(database, email)).token}`
      }
    }, 900_000)

    afterAll(async () => {
      for (const [name, figure] of Object.entries(figures)) console.log(`${name}: ${figure}`)
      await nginx?.stop()
      // KEEP_PODS=1 leaves them running, to look at after a failure (podman ps, podman logs).
      if (process.env.KEEP_PODS) return
      for (const file of played.reverse()) await down(file)
      for (const volume of [VOLUME, 'lumora-backups', POSTGRES_DATA]) {
        await podman(['volume', 'rm', '--force', volume]).catch(() => undefined)
      }
      await inbox?.close()
      await database?.close()
      if (dir) await removeFolder(dir)
    }, 120_000)

    it('runs as a non-root user with a read-only root file system and no capabilities', async () => {
      const name = containerOf({ kind: 'Deployment', metadata: { name: 'lumora-site' } }, 'site')
      const inspected = JSON.parse(await podman(['inspect', name]))[0]
      expect(inspected.HostConfig.ReadonlyRootfs).toBe(true)
      expect(inspected.Config.User).toBe(`${IMAGE_USER}:0`)
      expect(inspected.EffectiveCaps ?? []).toEqual([])
      const id = await podman(['exec', name, 'id', '-u'])
      expect(id.trim()).toBe(String(IMAGE_USER))
      await expect(podman(['exec', name, 'touch', '/app/written'])).rejects.toThrow(/Read-only/)
      // Each Debian package with its version, for whoever checks what the image carries.
      const packages = await podman(['exec', name, 'cat', '/app/debian-packages.txt'])
      expect(packages).toMatch(/^git 1:2\.\S+$/m)
      expect(packages).toMatch(/^tini \S+$/m)
    })

    it('serves the pages from both site replicas, from the first release, built by no replica', async () => {
      for (const index of [0, 1]) {
        const name = containerOf(
          { kind: 'Deployment', metadata: { name: index ? 'lumora-site-2' : 'lumora-site' } },
          'site',
        )
        const log = await podman(['logs', name])
        expect(log).toContain("Serving the editors' release")
        expect(log).not.toContain('Building the site')
      }
      for (const port of site) {
        const page = await fetch(`http://127.0.0.1:${port}/en/`)
        expect(page.status).toBe(200)
        expect(page.headers.get('content-security-policy')).toBeTruthy()
        expect(await page.text()).toContain('<html lang="en"')
        const data = await fetch(`http://127.0.0.1:${port}/page-data/de/page-data.json`)
        expect(data.status).toBe(200)
      }
    })

    it("publishes an editor's change through the publishing service to both site replicas", async () => {
      const version = await approvedImprint(1, 'Imprint, published in a pod')
      const published = await publish(1, version)
      expect(published.status, JSON.stringify(published.body)).toBe(200)
      for (const port of site) {
        await until(
          async () => (await imprintTitle(port)) === 'Imprint, published in a pod',
          20_000,
          200,
        )
      }
      // What one user id wrote, the group may write (UMASK=0002): OpenShift's next id can.
      const releases = join(await volumePath(), 'releases')
      const live = join(releases, await readlink(join(releases, CURRENT)))
      for (const folder of [releases, live]) expect((await stat(folder)).mode & 0o070).toBe(0o070)
    })

    it('takes sign-ups through nginx on both replicas, each stored once and mailed once', async () => {
      // nginx as the Service: the live release from the volume, `/api/` to both replicas.
      nginx = await startNginx({
        root: join(await volumePath(), 'releases', CURRENT),
        port: nginxPort,
        api: `127.0.0.1:${site[0]}`,
        scratch: join(dir, 'nginx'),
        edit: (block) =>
          block.replace(
            /server 127\.0\.0\.1:\d+;/,
            `server 127.0.0.1:${site[0]};\n  server 127.0.0.1:${site[1]};`,
          ),
      })
      const emails = Array.from({ length: 20 }, (_, index) => `pod${index}@example.com`)
      const answers = await Promise.all(
        emails.map(async (email) => {
          const response = await fetch(`${nginx?.origin}/api/forms/newsletter`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', origin: nginx?.origin as string },
            body: newsletterSignUp(email),
          })
          return `${response.status} ${response.status === 200 ? '' : await response.text()}`
        }),
      )
      expect(
        answers.filter((answer) => !answer.startsWith('200 ')),
        answers.join('\n'),
      ).toEqual([])
      // Both replicas took some (nginx turns between them).
      for (const index of [0, 1]) {
        const name = containerOf(
          { kind: 'Deployment', metadata: { name: index ? 'lumora-site-2' : 'lumora-site' } },
          'site',
        )
        expect(await podman(['logs', name])).toContain('/api/forms/newsletter')
      }
      await until(async () => emails.every((email) => inbox?.countByRecipient().has(email)), 20_000)
      const rows = await database?.query<{ email: string }>(
        'SELECT email FROM subscribers WHERE email LIKE $1',
        ['pod%@example.com'],
      )
      expect(rows?.map((row) => row.email).sort()).toEqual([...emails].sort())
      for (const email of emails) expect(inbox?.countByRecipient().get(email)).toBe(1)
    })

    it('stores every accepted sign-up once when a forms replica is killed', async () => {
      const emails = Array.from({ length: 80 }, (_, index) => `burst${index}@example.com`)
      const answers: string[] = new Array(emails.length).fill('not sent')
      let next = 0
      const second = containerOf(
        { kind: 'Deployment', metadata: { name: 'lumora-site-2' } },
        'site',
      )
      let killed: Promise<string> | undefined
      await Promise.all(
        Array.from({ length: 6 }, async () => {
          while (next < emails.length) {
            const index = next++
            if (index === emails.length / 2) killed = podman(['kill', '--signal', 'KILL', second])
            try {
              const response = await fetch(`${nginx?.origin}/api/forms/newsletter`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', origin: nginx?.origin as string },
                body: newsletterSignUp(emails[index] as string),
              })
              answers[index] = String(response.status)
            } catch {
              answers[index] = 'refused'
            }
          }
        }),
      )
      try {
        await killed
        const accepted = emails.filter((_, index) => answers[index] === '200')
        expect(accepted.length).toBeGreaterThan(emails.length / 2)
        // Each accepted sign-up gets its mail from the replica alive, after the dead one's lease.
        await until(
          async () => accepted.every((email) => inbox?.countByRecipient().has(email)),
          30_000,
        )
        const rows = await database?.query<{ email: string; n: number }>(
          'SELECT email, count(*)::int AS n FROM subscribers WHERE email LIKE $1 GROUP BY email',
          ['burst%@example.com'],
        )
        const stored = new Map(rows?.map((row) => [row.email, row.n]))
        for (const email of accepted) expect(stored.get(email), email).toBe(1)
        // A mail the killed replica handed to the mail server but had not recorded goes out
        // again from the other (its links work either way): at most those in flight then, the
        // sends (10, the mailer's connections) and the outcomes being recorded (as many).
        const twice = accepted.filter((email) => (inbox?.countByRecipient().get(email) ?? 0) > 1)
        expect(twice.length, twice.join(', ')).toBeLessThanOrEqual(20)
      } finally {
        // The killed replica comes back (Kubernetes restarts it; here podman does, by hand).
        await podman(['start', second])
        await ready(site[1] as number)
      }
    }, 120_000)

    it('keeps one whole release served when a publishing replica dies mid-publication', async () => {
      const releases = join(await volumePath(), 'releases')
      const before = await readlink(join(releases, CURRENT))
      const version = await approvedImprint(0, 'Imprint, in a publication cut short')
      const first = containerOf(
        { kind: 'Deployment', metadata: { name: 'lumora-publishing' } },
        'publishing',
      )
      // Killed outright the moment the new release's stage appears: process 1 of the container
      // (tini) killed from the host, at once, where `podman kill` takes a while.
      const init = Number(await podman(['inspect', first, '--format', '{{.State.Pid}}']))
      const cut = publish(0, version).catch(() => undefined)
      await until(
        async () => (await readdir(releases)).some((name) => name.endsWith('.next')),
        10_000,
        5,
      )
      process.kill(init, 'SIGKILL')
      await cut
      // One whole release is served: the one before, or (when the build won the race) the
      // new one complete, never half of it.
      const served = await readlink(join(releases, CURRENT))
      const finished = served !== before
      const titles = await Promise.all(site.map(imprintTitle))
      expect(titles).toEqual(
        site.map(() =>
          finished ? 'Imprint, in a publication cut short' : 'Imprint, published in a pod',
        ),
      )
      // The other replica publishes next, as soon as the dead one's lease lapsed: the same
      // approved draft, or a new one when the first landed.
      const next = finished ? await approvedImprint(1, 'Imprint, after the crash') : version
      const title = finished ? 'Imprint, after the crash' : 'Imprint, in a publication cut short'
      const published = await until(
        async () => {
          const answer = await publish(1, next)
          return answer.status === 200 ? answer : undefined
        },
        120_000,
        2000,
      )
      expect(published?.status).toBe(200)
      for (const port of site) {
        await until(async () => (await imprintTitle(port)) === title, 20_000, 200)
      }
      figures.memory = (
        await Promise.all(
          ['lumora-site', 'lumora-site-2', 'lumora-publishing-2'].map(async (name) => {
            const container = containerOf(
              { kind: 'Deployment', metadata: { name } },
              name.startsWith('lumora-site') ? 'site' : 'publishing',
            )
            return `${name} ${Math.round(await peakMemoryMiB(container))} MiB at most`
          }),
        )
      ).join(', ')
    }, 300_000)

    it('backs both services up from the CronJob while they run', async () => {
      const [cronJob] = await readPlayedManifest('backup.yaml')
      if (!cronJob) throw new Error('backup.yaml holds no CronJob')
      const template = cronJob.spec.jobTemplate.spec.template
      const pod: KubeObject = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: cronJob.metadata.name, labels: template.metadata.labels },
        spec: { ...template.spec, restartPolicy: 'Never' },
      }
      const file = join(dir, 'backup.yaml')
      played.push(file)
      const started = performance.now()
      await play(file, preparedObjects([pod]))
      const name = containerOf(pod, 'backup')
      const exit = await podman(['wait', name], { timeoutMs: 180_000 })
      const log = await podman(['logs', name])
      expect(exit.trim(), log).toBe('0')
      const backups = (
        await podman(['volume', 'inspect', 'lumora-backups', '--format', '{{.Mountpoint}}'])
      ).trim()
      const [archive] = await readdir(backups)
      expect(archive).toMatch(/^lumora-\d{8}T\d{6}Z\.tar\.gz$/)
      const { size } = await stat(join(backups, archive as string))
      figures.backup = `${(size / 1e6).toFixed(1)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s (the pod's start included); ${log.split('\n')[0]}`
    }, 240_000)

    it('runs the one-off roles as deploying.md shows them: migrate, build, start', async () => {
      // The page's own `podman run` lines, run as they are, on the host's network.
      const runs = documentedCommands().filter(
        ([tool, verb]) => tool === 'podman' && verb === 'run',
      )
      expect(runs.map(roleOf)).toEqual([['cms', 'migrate'], ['build'], ['start']])
      const [migrate, build, start] = runs as [string[], string[], string[]]
      // The migrations as the tables' owner, on a schema of their own.
      const fresh = await createSchema(OWNER_URL as string, 'kuberun')
      try {
        const migrated = await podman(
          asTested(migrate, IMAGE, {
            DATABASE_URL: fresh.urlOf(SERVICE_URL as string),
            DATABASE_OWNER_URL: fresh.url,
          }),
        )
        expect(migrated).toContain('The tables are up to date.')
      } finally {
        await fresh.drop()
      }
      // A build to a folder of the host, for a static host: the image's group may write it. The
      // site goes into a folder inside the mount: a build stages beside its output (`site.next`).
      const out = join(dir, 'public')
      execFileSync('mkdir', ['-m', '2775', out])
      await chown(out, 0, 0)
      await podman(asTested(build, IMAGE, { './public': out }), { timeoutMs: 300_000 })
      const built = readFileSync(join(out, 'site', 'en', 'index.html'), 'utf8')
      const siteUrl = build.find((word) => word.startsWith('SITE_URL='))?.slice('SITE_URL='.length)
      expect(built).toContain(`${siteUrl}/en/`)
      // The site alone from the image, on a volume of its own, stopped by SIGTERM.
      const port = await freePort()
      const [, ...options] = asTested(start, IMAGE, { PORT: String(port) })
      const id = (await podman(['run', '--detach', ...options])).trim()
      try {
        await ready(port)
        expect((await fetch(`http://127.0.0.1:${port}/de/`)).status).toBe(200)
        const stopped = performance.now()
        await podman(['stop', '--time', '30', id])
        figures['stop on SIGTERM'] = `${((performance.now() - stopped) / 1000).toFixed(1)} s`
        expect(await podman(['inspect', id, '--format', '{{.State.ExitCode}}'])).toMatch(/^0\s*$/)
      } finally {
        await podman(['rm', '--force', id]).catch(() => undefined)
        await podman(['volume', 'rm', '--force', 'lumora-trial']).catch(() => undefined)
      }
    }, 600_000)

    it('plays every manifest, in the order deploying.md applies them', async () => {
      const applied = appliedManifests().map((file) => file.replace('deploy/kubernetes/', ''))
      const manifests = (await readdir(join(ROOT, 'deploy', 'kubernetes'))).filter((name) =>
        name.endsWith('.yaml'),
      )
      // Each manifest applied once; and the suite played (or read, for its values) each in
      // the page's order: what the page applies later may stand on what it applied before.
      expect([...applied].sort()).toEqual([...manifests].sort())
      expect(manifestsUsed).toEqual(applied.filter((file) => manifestsUsed.includes(file)))
      expect(manifestsUsed.sort()).toEqual([...manifests].sort())
      // The page waits for the migration Job by its name.
      const waited = documentedCommands().find(
        ([tool, verb]) => tool === 'kubectl' && verb === 'wait',
      )
      const [job] = await readManifest('migrate.yaml')
      expect(waited?.at(-1)).toBe(`job/${job?.metadata.name}`)
    })
  },
)
