/**
 * The thread that compresses files for `twins.ts`: each request's bytes at Brotli 11 and gzip 9,
 * synchronously, so the work stays in this thread (zlib's asynchronous calls would take the
 * process's shared thread pool, where the file system's work queues too). At `priority` (the
 * worker's data; on Linux a niceness per thread), so a service's publications and answers go
 * first while it works.
 *
 * Node.js runs this file from its source (it strips the types) or compiled beside the programs:
 * it imports nothing but Node.js.
 */
import { setPriority } from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

export interface TwinRequest {
  id: number
  data: Uint8Array
}

export type TwinResponse =
  | { id: number; br: Uint8Array; gz: Uint8Array }
  | { id: number; error: string }

const priority = (workerData as { priority?: number } | undefined)?.priority ?? 0
if (priority !== 0) {
  try {
    setPriority(priority)
  } catch {
    // Not allowed here (a container without the capability to lower it): at the usual one.
  }
}

parentPort?.on('message', ({ id, data }: TwinRequest) => {
  try {
    const br = brotliCompressSync(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    })
    const gz = gzipSync(data, { level: 9 })
    // Copied, not transferred: a small result may share its memory with other buffers.
    parentPort?.postMessage({ id, br, gz } satisfies TwinResponse)
  } catch (error) {
    parentPort?.postMessage({ id, error: String(error) } satisfies TwinResponse)
  }
})
