import { expect, test } from '@playwright/test'

/**
 * Crawls the built site from both home pages: every internal link of every reachable page
 * answers 200, documents as PDF. Templates' own links (lists, breadcrumbs, categories) are
 * checked here; the content's links are also checked by validation before the build.
 */
test('every internal link of every reachable page answers 200', async ({ request }) => {
  test.setTimeout(120_000)
  const queue = ['/', '/en/', '/de/', '/blog/']
  const seen = new Set(queue)
  const broken: string[] = []
  let pages = 0
  while (queue.length > 0) {
    const path = queue.shift() as string
    const response = await request.get(path)
    if (response.status() !== 200) {
      broken.push(`${path} → ${response.status()}`)
      continue
    }
    const type = response.headers()['content-type'] ?? ''
    if (path.startsWith('/documents/')) {
      if (!type.startsWith('application/pdf')) broken.push(`${path} is ${type}, not a PDF`)
      continue
    }
    if (!type.startsWith('text/html')) continue
    pages += 1
    const html = await response.text()
    for (const match of html.matchAll(/<a [^>]*href="(\/[^"#?]*)/g)) {
      const href = match[1] as string
      if (!seen.has(href)) {
        seen.add(href)
        queue.push(href)
      }
    }
  }
  expect(broken).toEqual([])
  expect(pages).toBeGreaterThan(120)
})
