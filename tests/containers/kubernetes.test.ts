/**
 * The image and `deploy/kubernetes/` as an operator runs them, tried with podman: the image is
 * built from the checkout on a base made without a registry, the migration Job runs as the
 * tables' owner, then two replicas of the site with the forms service and two of the publishing
 * service start from the manifests, on one PostgreSQL (the tests' server, in a schema of its
 * own) and one shared volume, each in a read-only root file system as the image's non-root
 * user. Everything is checked from outside, over HTTP.
 *
 * Where podman does not do what Kubernetes does, the test does it and says so here:
 * - podman 4.3 ignores Services, and a Deployment's replicas on the host's network would bind
 *   one port: each Deployment is played with one replica, and the second replica is the same
 *   Deployment renamed, on the next port. nginx, with the block `npm run nginx-config` writes,
 *   stands in front of the site replicas as the Service (its `/api/` upstream lists both).
 * - podman 4.3 does not take Secret objects (its `secretKeyRef` reads podman's own secrets in
 *   another format): the test writes the values in place of each `secretKeyRef`.
 * - podman 4.3 has no Jobs: the Job's pod template is played as a Pod that runs once.
 * - Containers declare no ports to podman: on the host's network it refuses port mappings.
 * - The test's own settings, added to every container: host names that reach the test's
 *   servers on the loopback (PostgreSQL, SMTP, the bank's git remote as a mounted folder),
 *   `HOST=127.0.0.1` (the manifests listen on every address, as a pod must), no limits per
 *   client (every request comes from nginx) and a two-second mail lease.
 * Containers use the host's loopback only: no bridge network, no private-range address.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { chown, readdir, readlink, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import type { Database } from '../../src/database/database'
import { openDatabase } from '../../src/database/open'
import { ROOT } from '../../src/engine/config'
import { SESSION_COOKIE } from '../../src/publishing/http/app'
import { startSession } from '../../src/publishing/people/people'
import { CURRENT } from '../../src/publishing/workflow/releases'
import { type Inbox, signUp, startSmtp, until } from '../support/forms'
import { freePort } from '../support/free-port'
import { type NginxServer, nginxInstalled, startNginx } from '../support/nginx'
import { ada, addPeople, paul, rita } from '../support/people'
import {
  buildImage,
  containerOf,
  down,
  IMAGE,
  type KubeObject,
  peakMemoryMiB,
  play,
  podman,
  podmanInstalled,
  readManifest,
} from '../support/podman'
import { createSchema, type Schema } from '../support/schema'
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
let schema: Schema | undefined
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
        .map(
          async (name) => `${name}:\n${await podman(['logs', '--tail', '15', name]).catch(String)}`,
        ),
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

describe.skipIf(!podmanInstalled() || !OWNER_URL || !nginxInstalled())(
  'the image and the Kubernetes manifests, played by podman',
  () => {
    beforeAll(async () => {
      const build = await buildImage()
      figures.image = `${Math.round(build.bytes / 1e6)} MB, built in ${Math.round(build.seconds)} s`
      dir = await temporaryFolder('kubernetes-')
      schema = await createSchema(OWNER_URL as string, 'kube')
      database = await openDatabase({ url: OWNER_URL as string, schema: schema.name })
      inbox = await startSmtp()
      // The bank's repository: a bare clone of this checkout, the image's user's own (git
      // refuses a repository another user owns).
      const remote = join(dir, 'bank.git')
      execFileSync('git', ['clone', '--quiet', '--bare', '--no-local', ROOT, remote])
      execFileSync('chown', ['-R', `${IMAGE_USER}:0`, remote])
      await chown(dir, IMAGE_USER, 0)
      // A claim's volume, new: podman makes it the first container's user's.
      await podman(['volume', 'rm', '--force', VOLUME])
      await podman(['volume', 'create', VOLUME])

      for (let index = 0; index < 2; index++) {
        site.push(await freePort())
        publishing.push(await freePort())
      }
      nginxPort = await freePort()
      const siteUrl = `http://127.0.0.1:${nginxPort}`
      cmsUrl = `http://localhost:${publishing[0]}`

      const [config] = await readManifest('config.yaml')
      const [secrets] = await readManifest('secrets.yaml')
      if (!config || !secrets) throw new Error('config.yaml and secrets.yaml must hold one object')
      Object.assign(config.data, {
        SITE_URL: siteUrl,
        CMS_URL: cmsUrl,
        PUBLISHING_REMOTE: '/srv/bank.git',
        PUBLISHING_PUSH: 'off',
        TRUST_PROXY: '127.0.0.1',
      })
      Object.assign(secrets.stringData, {
        DATABASE_URL: schema.urlOf(SERVICE_URL as string),
        DATABASE_OWNER_URL: schema.url,
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
      const [job] = await readManifest('migrate.yaml')
      if (!job) throw new Error('migrate.yaml holds no Job')
      const migrate: KubeObject = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: job.metadata.name, labels: job.spec.template.metadata.labels },
        spec: { ...job.spec.template.spec, restartPolicy: 'Never' },
      }
      const migrateFile = join(dir, 'migrate.yaml')
      played.push(migrateFile)
      await play(migrateFile, preparedObjects([migrate]))
      const migrator = containerOf(migrate, 'migrate')
      const exit = await podman(['wait', migrator], { timeoutMs: 120_000 })
      expect(exit.trim(), await podman(['logs', migrator]).catch(String)).toBe('0')

      const [publishingDeployment] = await readManifest('publishing.yaml')
      const [siteDeployment] = await readManifest('site.yaml')
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
      for (const volume of [VOLUME, 'lumora-backups']) {
        await podman(['volume', 'rm', '--force', volume]).catch(() => undefined)
      }
      await inbox?.close()
      await database?.close()
      await schema?.drop()
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
      const [cronJob] = await readManifest('backup.yaml')
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
      // `podman run` as the docs show it, on the host's network (no port mapped).
      const RUN_ONCE = ['run', '--rm', '--network', 'host', '--read-only', '--tmpfs', '/tmp']
      // The migrations as the tables' owner, on a schema of their own.
      const fresh = await createSchema(OWNER_URL as string, 'kuberun')
      try {
        const migrated = await podman([
          ...RUN_ONCE,
          '-e',
          `DATABASE_URL=${fresh.urlOf(SERVICE_URL as string)}`,
          '-e',
          `DATABASE_OWNER_URL=${fresh.url}`,
          IMAGE,
          'cms',
          'migrate',
        ])
        expect(migrated).toContain('The tables are up to date.')
      } finally {
        await fresh.drop()
      }
      // A build to a folder of the host, for a static host: the image's group may write it. The
      // site goes into a folder inside the mount: a build stages beside its output (`site.next`).
      const out = join(dir, 'site')
      execFileSync('mkdir', ['-m', '2775', out])
      await chown(out, 0, 0)
      await podman(
        [
          ...RUN_ONCE,
          '-v',
          `${out}:/srv`,
          '-e',
          'OUT_DIR=/srv/site',
          '-e',
          'BUILD_CACHE_DIR=/tmp/cache',
          '-e',
          'SITE_URL=https://www.lumora-bank.example',
          IMAGE,
          'build',
        ],
        { timeoutMs: 300_000 },
      )
      const built = readFileSync(join(out, 'site', 'en', 'index.html'), 'utf8')
      expect(built).toContain('https://www.lumora-bank.example/en/')
      // The site alone from the image, on a volume of its own, stopped by SIGTERM.
      const port = await freePort()
      const id = (
        await podman([
          'run',
          '--detach',
          '--network',
          'host',
          '--read-only',
          '--tmpfs',
          '/tmp',
          '-v',
          'lumora-trial:/var/lib/lumora',
          '-e',
          `PORT=${port}`,
          '-e',
          'HOST=127.0.0.1',
          '-e',
          'PUBLISHING=off',
          IMAGE,
          'start',
        ])
      ).trim()
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
  },
)
