/**
 * What anchoring the audit trail costs (the third attacker's probe: every entry that approves,
 * publishes, rolls back or grants a role is anchored before its request answers): an entry
 * appended, then a checkpoint written in git, on PGlite and a bare repository as the service
 * keeps them, with `AUDIT_KEY`. The figure is the checkpoint alone, the time a request's answer
 * now waits; the entry's own append is given beside it.
 */
import { execFileSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../src/database/open'
import { AuditCheckpoints } from '../src/publishing/audit/anchors'
import { appendAudit, setAuditKeys } from '../src/publishing/audit/trail'
import { GitRepository } from '../src/publishing/git/repository'
import { PUBLISHING_MIGRATIONS } from '../src/publishing/migrations'

export interface AnchorCost {
  /** Milliseconds for each checkpoint, and for each entry appended before it. */
  checkpointMs: number[]
  appendMs: number[]
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b)
export const quantile = (values: number[], q: number) =>
  sorted(values)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? Number.NaN

export async function anchorCost(runs = 100): Promise<AnchorCost> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-anchor-'))
  setAuditKeys(['a bench key of thirty-two characters or more'])
  const database = await openDatabase({
    dataDir: join(dir, 'db'),
    migrations: PUBLISHING_MIGRATIONS,
  })
  const gitDir = join(dir, 'site.git')
  execFileSync('git', ['init', '--quiet', '--bare', gitDir])
  const repo = new GitRepository({ gitDir })
  const checkpoints = new AuditCheckpoints({ database, repo, everyMs: 5 * 60_000 })
  const result: AnchorCost = { checkpointMs: [], appendMs: [] }
  try {
    for (let n = 0; n < runs + 5; n++) {
      const appended = performance.now()
      await appendAudit(database, {
        actor: 'paul@bank.example',
        action: 'approve',
        subject: `pages/page-${n}`,
      })
      const anchored = performance.now()
      await checkpoints.write()
      const done = performance.now()
      // The first few warm the spawner and the caches.
      if (n < 5) continue
      result.appendMs.push(anchored - appended)
      result.checkpointMs.push(done - anchored)
    }
  } finally {
    repo.close()
    await database.close()
    setAuditKeys(undefined)
    await rm(dir, { recursive: true, force: true })
  }
  return result
}

export const formatAnchorCost = (cost: AnchorCost) =>
  `audit anchor before the answer: checkpoint ${quantile(cost.checkpointMs, 0.5).toFixed(1)} ms median, ${quantile(cost.checkpointMs, 0.9).toFixed(1)} ms p90 (${cost.checkpointMs.length} runs); the entry's append ${quantile(cost.appendMs, 0.5).toFixed(1)} ms median`
