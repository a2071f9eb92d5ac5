/**
 * The commands `docs/deploying.md` gives an operator, read from its `sh` blocks, so that the
 * container suite runs what the page says rather than a copy of it: a command the page changes
 * is the command the test runs, and one it adds fails the test until a test runs it.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from '../../src/engine/config'

export const DEPLOYING = join(ROOT, 'docs', 'deploying.md')

/**
 * Every command of the page's `sh` blocks as its words: lines continued with `\` joined,
 * comments dropped, `a && b` as two commands. The page quotes nothing, and a test fails on a
 * quote rather than split it wrongly.
 */
export function documentedCommands(text = readFileSync(DEPLOYING, 'utf8')): string[][] {
  const commands: string[][] = []
  for (const [, block] of text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    const lines = (block as string).replace(/\\\n\s*/g, ' ').split('\n')
    for (const line of lines) {
      const command = line.replace(/(^|\s)#.*$/, '').trim()
      if (!command) continue
      if (/["'`$]/.test(command)) throw new Error(`deploying.md: a command quotes: ${command}`)
      for (const part of command.split('&&')) commands.push(part.trim().split(/\s+/))
    }
  }
  return commands
}

/** The manifests `kubectl apply -f …` names, in the page's order. */
export function appliedManifests(commands = documentedCommands()): string[] {
  return commands
    .filter(([tool, verb]) => tool === 'kubectl' && verb === 'apply')
    .flatMap((words) => words.flatMap((word, index) => (words[index - 1] === '-f' ? [word] : [])))
}

/**
 * A `podman run` of the page as the container suite runs it: on the host's network (podman
 * maps no port there: `-p` becomes the role's `PORT` on the loopback), with the image the suite
 * built, `…` values and host folders from `values` (by setting name, or by the folder's path).
 */
export function asTested(words: string[], image: string, values: Record<string, string>): string[] {
  const out = ['run', '--network', 'host']
  for (let index = 2; index < words.length; index++) {
    const word = words[index] as string
    const next = words[index + 1] ?? ''
    if (word === '-p') {
      out.push('-e', `PORT=${values.PORT}`, '-e', 'HOST=127.0.0.1')
      index++
    } else if (word === '-e' && next.endsWith('=…')) {
      const name = next.slice(0, -2)
      const value = values[name]
      if (value === undefined) throw new Error(`deploying.md: no value for ${name} in the test`)
      out.push('-e', `${name}=${value}`)
      index++
    } else if (word === '-v' && next.startsWith('./')) {
      const [host, inside] = next.split(':') as [string, string]
      const folder = values[host]
      if (folder === undefined) throw new Error(`deploying.md: no folder for ${host} in the test`)
      out.push('-v', `${folder}:${inside}`)
      index++
    } else if (word === 'lumora-website') out.push(image)
    else out.push(word)
  }
  return out
}

/** What a `podman run` of the page runs: the words after the image's name. */
export const roleOf = (words: string[]) => words.slice(words.indexOf('lumora-website') + 1)
