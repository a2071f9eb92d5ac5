/**
 * The Kubernetes manifests (`deploy/kubernetes/`) hold what an operator relies on without a
 * cluster to try them in: every container hardened and limited, every Deployment probed, and
 * every reference to a Secret or ConfigMap key naming one the manifests define. The container
 * suite (`tests/containers/`) plays them for real.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { ROOT } from '../../../src/engine/config'

// biome-ignore lint/suspicious/noExplicitAny: Kubernetes objects, read as plain data
type KubeObject = Record<string, any>

const DIR = join(ROOT, 'deploy', 'kubernetes')
const objects: (KubeObject & { file: string })[] = readdirSync(DIR)
  .filter((file) => file.endsWith('.yaml'))
  .flatMap((file) =>
    parseAllDocuments(readFileSync(join(DIR, file), 'utf8')).map((document) => {
      expect(document.errors, file).toEqual([])
      return { ...(document.toJS() as KubeObject), file }
    }),
  )

/** A workload's pod template, whatever its kind. */
function podSpecOf(object: KubeObject): KubeObject | undefined {
  if (object.kind === 'CronJob') return object.spec.jobTemplate.spec.template.spec
  if (['Deployment', 'StatefulSet', 'Job'].includes(object.kind)) return object.spec.template.spec
  return undefined
}
const workloads = objects.filter((object) => podSpecOf(object))
const keysOf = (kind: string) =>
  new Map(
    objects
      .filter((object) => object.kind === kind)
      .map((object) => [
        object.metadata.name as string,
        new Set(Object.keys({ ...object.data, ...object.stringData })),
      ]),
  )

describe('the Kubernetes manifests', () => {
  it('define the workloads an operator needs', () => {
    expect(workloads.map((object) => `${object.kind}/${object.metadata.name}`).sort()).toEqual([
      'CronJob/lumora-backup',
      'Deployment/lumora-publishing',
      'Deployment/lumora-site',
      'Job/lumora-migrate',
      'StatefulSet/lumora-postgres',
    ])
  })

  it('run every container as non-root, read-only, without capabilities, limited', () => {
    for (const workload of workloads) {
      const pod = podSpecOf(workload) as KubeObject
      expect(pod.securityContext?.runAsNonRoot, workload.file).toBe(true)
      expect(pod.automountServiceAccountToken, workload.file).toBe(false)
      for (const container of pod.containers) {
        const where = `${workload.file}: ${container.name}`
        expect(container.securityContext?.readOnlyRootFilesystem, where).toBe(true)
        expect(container.securityContext?.allowPrivilegeEscalation, where).toBe(false)
        expect(container.securityContext?.capabilities?.drop, where).toEqual(['ALL'])
        expect(container.resources?.limits?.memory, where).toBeTruthy()
        expect(container.resources?.requests?.memory, where).toBeTruthy()
        // /tmp is the one place besides the volumes a read-only container writes.
        expect(
          container.volumeMounts?.some((mount: KubeObject) => mount.mountPath === '/tmp'),
          where,
        ).toBe(true)
      }
    }
  })

  it("probe the services' health and readiness on their own ports", () => {
    for (const name of ['lumora-site', 'lumora-publishing']) {
      const deployment = objects.find((object) => object.metadata?.name === name)
      const [container] = podSpecOf(deployment as KubeObject)?.containers ?? []
      const port = container.ports[0].containerPort
      expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port })
      expect(container.startupProbe.httpGet).toEqual({ path: '/healthz', port })
      expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port })
      const env = Object.fromEntries(
        container.env.map((entry: KubeObject) => [entry.name, entry.value]),
      )
      expect(env[name === 'lumora-site' ? 'PORT' : 'CMS_PORT']).toBe(String(port))
    }
  })

  it('name only keys their Secrets and ConfigMaps define', () => {
    const secrets = keysOf('Secret')
    const maps = keysOf('ConfigMap')
    for (const workload of workloads) {
      for (const container of (podSpecOf(workload) as KubeObject).containers) {
        for (const entry of container.env ?? []) {
          const secret = entry.valueFrom?.secretKeyRef
          const map = entry.valueFrom?.configMapKeyRef
          const where = `${workload.file}: ${entry.name}`
          if (secret) expect(secrets.get(secret.name)?.has(secret.key), where).toBe(true)
          if (map) expect(maps.get(map.name)?.has(map.key), where).toBe(true)
        }
      }
    }
  })

  it('run the services from one image, each role by its arguments', () => {
    const ours = workloads.filter((workload) => workload.metadata.name !== 'lumora-postgres')
    const images = new Set(
      ours.flatMap((workload) =>
        (podSpecOf(workload) as KubeObject).containers.map((c: KubeObject) => c.image),
      ),
    )
    expect([...images]).toEqual(['localhost/lumora-website:latest'])
  })
})
