/**
 * `npm run validate`: checks the whole content store without building, and prints every
 * problem with file, field and what was expected.
 * `npm run validate -- --as TYPE FILE…` checks single files against one content type (for
 * writers of new content types before the store switches them on).
 */
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { ContentValidationError, formatProblem } from '../content/errors'
import { createFileStore, parseMarkdownFile, parseYaml } from '../content/file-store'
import { loadContent } from '../content/load'
import { renderRichText } from '../content/markdown'
import * as schemas from '../content/schema/entries'
import { checkContentDir, readBuildConfig } from '../engine/config'
import { runProgram } from '../shared/settings-error'

async function checkFiles(type: string, files: string[]): Promise<number> {
  const schema = (schemas as Record<string, unknown>)[type] as import('zod').ZodType | undefined
  if (!schema || typeof (schema as { safeParse?: unknown }).safeParse !== 'function') {
    console.error(`Unknown content type "${type}". Types: ${Object.keys(schemas).join(', ')}`)
    return 1
  }
  let problems = 0
  for (const file of files) {
    const source = await readFile(resolve(file), 'utf8')
    let data: unknown
    try {
      data = file.endsWith('.md') ? parseMarkdownFile(source) : parseYaml(source)
    } catch (error) {
      console.error(`${file}: expected valid YAML: ${(error as Error).message.split('\n')[0]}`)
      problems += 1
      continue
    }
    const result = schema.safeParse(data)
    if (result.success) {
      await renderRichText(result.data, (path, message) => {
        problems += 1
        console.error(formatProblem({ file, field: path.join('.'), message }))
      })
      continue
    }
    for (const issue of result.error.issues) {
      problems += 1
      console.error(formatProblem({ file, field: issue.path.join('.'), message: issue.message }))
    }
  }
  console.log(
    problems === 0 ? `${files.length} files are valid ${type} entries.` : `${problems} problems.`,
  )
  return problems === 0 ? 0 : 1
}

async function main(): Promise<number> {
  const args = process.argv.slice(2)
  if (args[0] === '--as') return checkFiles(args[1] ?? '', args.slice(2))
  const { contentDir, root } = readBuildConfig()
  await checkContentDir({ contentDir })
  try {
    const content = await loadContent(createFileStore(contentDir), {
      publicDir: resolve(root, 'public'),
    })
    console.log(`${contentDir}: ${content.entries.length} entries, all valid.`)
    return 0
  } catch (error) {
    if (!(error instanceof ContentValidationError)) throw error
    console.error(error.message)
    return 1
  }
}

runProgram(async () => {
  process.exitCode = await main()
})
