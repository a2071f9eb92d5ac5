/**
 * The project's files as git knows them (tracked, and new ones not ignored), relative to the
 * project with `/`: what the documentation tests read, found wherever the files move.
 */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'

export const PROJECT_ROOT = join(import.meta.dirname, '..', '..')

export function projectFiles(root = PROJECT_ROOT): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean)
}
