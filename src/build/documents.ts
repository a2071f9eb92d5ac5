/** Writes the PDF documents of the content (customer information, studies) and the media kit. */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { type DocumentSpec, documentsOf, MEDIA_KIT_PATH } from '../content/documents'
import type { SiteContent } from '../content/load'
import { renderMarkdown } from '../content/markdown'
import { LANGUAGES } from '../shared/languages'

/** The media kit: company facts and, in every language, what the company does. */
export function mediaKit(content: SiteContent): DocumentSpec {
  const { settings } = content
  const facts = [
    `- ${settings.legalEntity}, ${settings.address.street}, ${settings.address.postalCode} ${settings.address.city}`,
    `- ${settings.register.court}, ${settings.register.number}`,
    `- ${settings.managementBoard.join('; ')}`,
    ...settings.supervisors.map((supervisor) => `- ${supervisor.name}`),
    `- ${settings.pressEmail}, ${settings.phone}`,
  ].join('\n')
  const about = LANGUAGES.flatMap((language) => {
    const page = content.entries.find(
      (entry) => entry.language === language && entry.name === 'about',
    )
    return page ? [{ heading: page.data.title, body: renderMarkdown(String(page.data.intro)) }] : []
  })
  return {
    path: MEDIA_KIT_PATH,
    title: `${settings.brandName} – Media kit / Pressemappe`,
    language: 'en',
    parts: [{ heading: settings.legalEntity, body: renderMarkdown(facts) }, ...about],
  }
}

export async function writeDocuments(content: SiteContent, outDir: string): Promise<number> {
  const specs = [...documentsOf(content.entries), mediaKit(content)]
  // pdf-lib is only loaded by builds that write documents.
  const { renderPdf } = await import('./pdf')
  await Promise.all(
    specs.map(async (spec) => {
      const file = join(outDir, spec.path)
      await mkdir(dirname(file), { recursive: true })
      await writeFile(file, await renderPdf(spec, content.settings.legalEntity))
    }),
  )
  return specs.length
}
