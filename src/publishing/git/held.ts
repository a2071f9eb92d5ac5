/**
 * Whether a long-running helper process (`git cat-file --batch`, `git update-ref --stdin`) keeps
 * Node.js running: only while someone waits for its answer. The process itself is unref'd when
 * it starts; its pipes are held while an answer is awaited and let go after it.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process'

export function holdPipes(child: ChildProcessWithoutNullStreams | undefined, waiting: boolean) {
  if (!child) return
  for (const stream of [child.stdin, child.stdout, child.stderr]) {
    const handle = stream as unknown as { ref?(): void; unref?(): void }
    if (waiting) handle.ref?.()
    else handle.unref?.()
  }
}
