/**
 * Writes PDFs off the main thread when the build runs as a compiled program (`scripts/run.mjs`
 * names the folder of its worker in `SITE_PROGRAMS_DIR`), else in this thread, as under the
 * test runner. Either way, PDFKit loads only once a document has to be written.
 */
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import type { DocumentSpec } from '../../content/documents'

export interface PdfRequest {
  id: number
  spec: DocumentSpec
  issuer: string
}

export type PdfResponse = { id: number; pdf: Uint8Array } | { id: number; error: string }

export interface PdfWriter {
  render(spec: DocumentSpec, issuer: string): Promise<Uint8Array>
  /**
   * Starts the worker now, so it has loaded PDFKit and the fonts by the time the content is ready: a build
   * from an empty cache waits for its PDFs last.
   */
  warm(): void
  close(): Promise<void>
}

export function openPdfWriter(programsDir = process.env.SITE_PROGRAMS_DIR): PdfWriter {
  if (!programsDir) {
    return {
      render: async (spec, issuer) => (await import('./tagged-pdf')).renderPdf(spec, issuer),
      warm: () => {},
      close: async () => {},
    }
  }
  let worker: Worker | undefined
  let next = 0
  const waiting = new Map<number, { resolve(pdf: Uint8Array): void; reject(error: Error): void }>()
  const failAll = (error: Error) => {
    for (const { reject } of waiting.values()) reject(error)
    waiting.clear()
  }
  const start = () => {
    const started = new Worker(join(programsDir, 'pdf-worker.mjs'))
    started.on('message', (response: PdfResponse) => {
      const request = waiting.get(response.id)
      if (!request) return
      waiting.delete(response.id)
      if ('pdf' in response) request.resolve(response.pdf)
      else request.reject(new Error(response.error))
    })
    // A worker that dies (out of memory, a crash in a library) fails its documents, and the
    // build with them, instead of leaving it waiting.
    started.on('error', failAll)
    started.on('exit', (code) => {
      if (waiting.size > 0) failAll(new Error(`the PDF worker stopped (exit code ${code})`))
      worker = undefined
    })
    return started
  }
  return {
    render(spec, issuer) {
      worker ??= start()
      const id = next++
      const request: PdfRequest = { id, spec, issuer }
      const done = new Promise<Uint8Array>((resolve, reject) => {
        waiting.set(id, { resolve, reject })
      })
      worker.postMessage(request)
      return done
    },
    warm() {
      worker ??= start()
    },
    async close() {
      await worker?.terminate()
    },
  }
}
