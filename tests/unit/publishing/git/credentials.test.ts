/**
 * How the publishing service proves itself to the bank's git remote: a token over HTTPS, read
 * by a credential helper from git's environment (never on a command line), or a deploy key over
 * SSH checked against known hosts; and neither reaches the command run after each release.
 */
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  type GitRepository,
  initBare,
  remoteCredentials,
} from '../../../../src/publishing/git/repository'
import { withoutServiceSecrets } from '../../../../src/publishing/publication/publish'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

const NAMES = ['PUBLISHING_REMOTE_TOKEN', 'PUBLISHING_REMOTE_USER'] as const

describe("the credentials for the bank's remote", () => {
  let dir = ''
  let repo: GitRepository
  const saved: Partial<Record<(typeof NAMES)[number], string>> = {}

  beforeEach(async () => {
    dir = await temporaryFolder('git-credentials-')
    repo = await initBare(join(dir, 'site.git'))
    for (const name of NAMES) saved[name] = process.env[name]
  })
  afterEach(async () => {
    for (const name of NAMES) {
      if (saved[name] === undefined) delete process.env[name]
      else process.env[name] = saved[name]
    }
    await removeFolder(dir)
  })

  /** What git would send to the remote at `host`, as its credential machinery fills it in. */
  const filled = async (host: string) =>
    (await repo.git(['credential', 'fill'], `protocol=https\nhost=${host}\n\n`)).toString()

  it('gives git the token over HTTPS, with the user named or git', async () => {
    process.env.PUBLISHING_REMOTE_TOKEN = 'tok-3f9a'
    expect(await filled('git.bank.example')).toContain('username=git\npassword=tok-3f9a\n')
    process.env.PUBLISHING_REMOTE_USER = 'x-access-token'
    expect(await filled('git.bank.example')).toContain(
      'username=x-access-token\npassword=tok-3f9a\n',
    )
  })

  it('never puts the token into the configuration git is given', () => {
    const credentials = remoteCredentials({ PUBLISHING_REMOTE_TOKEN: 'tok-3f9a' })
    expect(JSON.stringify(credentials)).not.toContain('tok-3f9a')
    expect(credentials.GIT_CONFIG_KEY_0).toBe('credential.helper')
  })

  it('asks for nothing without a token, and never prompts', async () => {
    delete process.env.PUBLISHING_REMOTE_TOKEN
    await expect(filled('git.bank.example')).rejects.toThrow(/terminal prompts disabled/)
  })

  it('uses the deploy key over SSH against the known hosts only', () => {
    const { GIT_SSH_COMMAND } = remoteCredentials({
      PUBLISHING_SSH_KEY: '/etc/lumora/deploy key',
      PUBLISHING_SSH_KNOWN_HOSTS: '/etc/lumora/known_hosts',
    })
    expect(GIT_SSH_COMMAND).toBe(
      "ssh -i '/etc/lumora/deploy key' -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=yes -o UserKnownHostsFile='/etc/lumora/known_hosts'",
    )
    // Without known hosts, no host is trusted: never one seen for the first time.
    expect(remoteCredentials({ PUBLISHING_SSH_KEY: '/k' }).GIT_SSH_COMMAND).toContain(
      "UserKnownHostsFile='/dev/null'",
    )
  })

  it('keeps the token and the metrics tokens from the command after each release', () => {
    const kept = withoutServiceSecrets({
      PUBLISHING_REMOTE_TOKEN: 't',
      METRICS_TOKEN: 'm',
      CMS_METRICS_TOKEN: 'c',
      RCLONE_CONFIG: 'r',
    })
    expect(kept).toEqual({ RCLONE_CONFIG: 'r' })
  })
})
