/**
 * The PDF writer in a worker thread (`./writer.ts`): laying out text in Inter and deflate
 * are a second of the main thread's time in a build of the real site from an empty cache,
 * which the other core does instead, beside the bundling and rendering.
 */
import { parentPort } from 'node:worker_threads'
import { FONT_FILES, type FontName, pdfFont } from './fonts'
import { renderPdf } from './tagged-pdf'
import type { PdfRequest, PdfResponse } from './writer'

// The fonts are read while the content loads (the worker starts early on a first build).
for (const name of Object.keys(FONT_FILES) as FontName[]) pdfFont(name)

parentPort?.on('message', async ({ id, spec, issuer }: PdfRequest) => {
  let response: PdfResponse
  try {
    response = { id, pdf: await renderPdf(spec, issuer) }
  } catch (error) {
    response = {
      id,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    }
  }
  parentPort?.postMessage(response, 'pdf' in response ? [response.pdf.buffer as ArrayBuffer] : [])
})
