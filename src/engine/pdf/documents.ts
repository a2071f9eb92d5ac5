/** Writes the PDF documents of the content (customer information, studies) and the media kit. */
import { createHash, randomUUID } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { type DocumentSpec, documentsOf, MEDIA_KIT_PATH } from '../../content/documents'
import { type MarkdownCache, renderMarkdownCached } from '../../content/markdown'
import type { SiteContent } from '../../content/site-content'
import { LANGUAGES } from '../../shared/languages'
import { placeFile } from '../cache/place-file'
import { openPdfWriter, type PdfWriter } from './writer'

/** The media kit: company facts and, in every language, what the company does. */
export async function mediaKit(content: SiteContent, cache?: MarkdownCache): Promise<DocumentSpec> {
  const { settings } = content
  const facts = [
    `- ${settings.legalEntity}, ${settings.address.street}, ${settings.address.postalCode} ${settings.address.city}`,
    `- ${settings.register.court}, ${settings.register.number}`,
    `- ${settings.managementBoard.join('; ')}`,
    ...settings.supervisors.map((supervisor) => `- ${supervisor.name}`),
    `- ${settings.pressEmail}, ${settings.phone}`,
  ].join('\n')
  const about = []
  for (const language of LANGUAGES) {
    const page = content.entries.find(
      (entry) => entry.language === language && entry.name === 'about',
    )
    if (page) {
      const body = await renderMarkdownCached(String(page.data.intro), cache)
      about.push({ heading: page.data.title, body, language })
    }
  }
  return {
    path: MEDIA_KIT_PATH,
    title: `${settings.brandName} – Media kit / Pressemappe`,
    language: 'en',
    parts: [
      { heading: settings.legalEntity, body: await renderMarkdownCached(facts, cache) },
      ...about,
    ],
  }
}

export interface DocumentOptions {
  markdownCache?: MarkdownCache
  /** Where PDFs of earlier builds are kept, by a hash of what they are made of. */
  cacheDir?: string
  /** The project root: the PDF writer's code is part of each document's hash. */
  root?: string
  /** The writer to use (the build's, started early); by default one of its own. */
  pdfWriter?: PdfWriter
}

const WRITER_FILES = [
  'src/engine/pdf/tagged-pdf.ts',
  'src/engine/pdf/blocks.ts',
  'src/engine/pdf/fonts.ts',
  'src/engine/html-scan.ts',
  'package-lock.json',
]

/**
 * Writes every document under `outDir`. A document whose text, issuer and writer are unchanged
 * since an earlier build is copied from the cache; only the others load PDFKit and render.
 */
export async function writeDocuments(
  content: SiteContent,
  outDir: string,
  options: DocumentOptions = {},
): Promise<number> {
  const specs = [...documentsOf(content.entries), await mediaKit(content, options.markdownCache)]
  const issuer = content.settings.legalEntity
  const writer = createHash('sha256')
  for (const file of options.root ? WRITER_FILES : []) {
    writer.update(await readFile(join(options.root as string, file)).catch(() => Buffer.from('')))
  }
  const cacheDir = options.cacheDir ? join(options.cacheDir, 'documents') : undefined
  if (cacheDir) await mkdir(cacheDir, { recursive: true })
  const used = new Set<string>()
  const pdfWriter = options.pdfWriter ?? openPdfWriter()
  try {
    await Promise.all(
      specs.map(async (spec) => {
        const file = join(outDir, spec.path)
        await mkdir(dirname(file), { recursive: true })
        const key = createHash('sha256')
          .update(writer.copy().digest('hex'))
          .update(JSON.stringify({ spec, issuer }))
          .digest('hex')
          .slice(0, 32)
        const cached = cacheDir && join(cacheDir, `${key}.pdf`)
        used.add(`${key}.pdf`)
        if (
          cached &&
          (await placeFile(cached, file).then(
            () => true,
            () => false,
          ))
        )
          return
        const pdf = await pdfWriter.render(spec, issuer)
        if (!cached) return writeFile(file, pdf)
        // Written once, into the cache (by a new name, renamed: never half there), and linked.
        const temporary = `${cached}.${process.pid}-${randomUUID()}.tmp`
        await writeFile(temporary, pdf)
        await rename(temporary, cached)
        await placeFile(cached, file)
      }),
    )
  } finally {
    await pdfWriter.close()
  }
  if (cacheDir) {
    const stale = (await readdir(cacheDir)).filter((name) => !used.has(name))
    await Promise.all(stale.map((name) => rm(join(cacheDir, name), { force: true })))
  }
  return specs.length
}
