/**
 * Every built HTML file is valid HTML (html-validate's rules of the HTML standard and of whole
 * documents, run on the files the web server serves).
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { HtmlValidate } from 'html-validate'
import { DIST } from '../support/site'

const validator = new HtmlValidate({
  extends: ['html-validate:standard', 'html-validate:document'],
  rules: {
    // Integrity hashes guard files from other hosts; every script and style here is our own,
    // under content-hashed names.
    'require-sri': 'off',
  },
})

async function validate(file: string, html: string): Promise<string[]> {
  const report = await validator.validateString(html, file)
  return report.results.flatMap((result) =>
    result.messages.map(
      (message) =>
        `${file}:${message.line}:${message.column} ${message.ruleId}: ${message.message}`,
    ),
  )
}

test('every built page is valid HTML', async () => {
  const files = (await readdir(DIST, { recursive: true })).filter((name) => name.endsWith('.html'))
  expect(files.length).toBeGreaterThan(100)
  const problems: string[] = []
  for (const file of files)
    problems.push(...(await validate(file, await readFile(join(DIST, file), 'utf8'))))
  expect(problems).toEqual([])
})

test('the validator finds what is wrong, with file, line and rule', async () => {
  const html = await readFile(join(DIST, 'en', 'index.html'), 'utf8')
  const broken = html.replace('<main', '<main><div><p>unclosed</span>').replace(/<title>/, '<p>')
  const problems = await validate('en/index.html', broken)
  expect(problems.length).toBeGreaterThan(0)
  expect(problems[0]).toMatch(/^en\/index\.html:\d+:\d+ [\w-]+: /)
})
