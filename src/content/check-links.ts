/**
 * Checks of what the content points at: internal links lead to pages or documents that are
 * published, the pages a form leads to exist, and every image named is in the public folder.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { LINK_EXPIRED_PAGE, UNSUBSCRIBED_PAGE } from '../shared/forms/definition'
import { generatedImageDirOf } from '../shared/images'
import { LANGUAGES, type Language } from '../shared/languages'
import { layoutFile } from './collections'
import { documentsOf, MEDIA_KIT_PATH } from './documents'
import type { ContentProblem } from './errors'
import type { FormsContent } from './forms'
import { linksIn } from './markdown'
import type { LayoutContent } from './schema/entries'
import type { ContentEntry } from './site-content'

/** The pages a form leads to exist in every language. */
export function checkFormPages(
  forms: FormsContent,
  paths: ReadonlySet<string>,
  problems: ContentProblem[],
) {
  const check = (file: string, field: string, page: string) => {
    for (const language of LANGUAGES) {
      if (!paths.has(`/${language}/${page}/`)) {
        problems.push({
          file,
          field,
          message: `expected an existing page; there is no /${language}/${page}/`,
        })
      }
    }
  }
  for (const [id, list] of Object.entries(forms.lists)) {
    check(`forms/lists/${id}.yaml`, 'successPage', list.successPage)
    check(`forms/lists/${id}.yaml`, 'confirmedPage', list.confirmedPage)
  }
  for (const [id, survey] of Object.entries(forms.surveys)) {
    check(`forms/surveys/${id}.yaml`, 'successPage', survey.successPage)
  }
  // Where the links of every list's e-mails lead when they no longer work or unsubscribed.
  if (Object.keys(forms.lists).length > 0) {
    for (const page of [LINK_EXPIRED_PAGE, UNSUBSCRIBED_PAGE]) {
      for (const language of LANGUAGES) {
        if (!paths.has(`/${language}/${page}/`)) {
          problems.push({
            file: `${language}/pages/${page}.yaml`,
            field: '',
            message: `expected this page: the links of the mailing lists' e-mails lead to /${language}/${page}/`,
          })
        }
      }
    }
  }
}

/** Every `href` and every link inside rich text, with the field it stands in. */
function collectLinks(
  value: unknown,
  path: string[],
  found: { field: string; href: string }[],
): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      collectLinks(item, [...path, String(index)], found)
    })
    return
  }
  if (typeof value !== 'object' || value === null) return
  const record = value as Record<string, unknown>
  if (typeof record.html === 'string' && Object.keys(record).length === 1) {
    for (const href of linksIn({ html: record.html })) found.push({ field: path.join('.'), href })
    return
  }
  for (const [key, child] of Object.entries(record)) {
    if (key === 'href' && typeof child === 'string')
      found.push({ field: [...path, key].join('.'), href: child })
    else collectLinks(child, [...path, key], found)
  }
}

/** Internal links point at pages or documents that exist. */
export function checkLinks(
  layouts: Partial<Record<Language, LayoutContent>>,
  entries: ContentEntry[],
  paths: Set<string>,
  problems: ContentProblem[],
): void {
  for (const entry of entries) {
    paths.add(entry.routed ? `/${entry.language}${entry.originalPath}` : entry.originalPath)
  }
  const documents = new Set<string>([MEDIA_KIT_PATH])
  for (const document of documentsOf(entries)) {
    if (documents.has(document.path)) {
      problems.push({
        file: document.file,
        field: '',
        message: `expected a unique document path; ${document.path} is published by another entry`,
      })
    }
    documents.add(document.path)
  }
  const check = (file: string, field: string, href: string) => {
    if (!href.startsWith('/')) return
    const path = href.split(/[?#]/)[0] ?? href
    if (path.startsWith('/documents/')) {
      if (!documents.has(path)) {
        problems.push({
          file,
          field,
          message: `expected a link to an existing document; nothing is published at ${path}`,
        })
      }
      return
    }
    if (!paths.has(path)) {
      problems.push({
        file,
        field,
        message: `expected a link to an existing page; nothing is published at ${path}`,
      })
    }
  }
  for (const language of LANGUAGES) {
    const found: { field: string; href: string }[] = []
    collectLinks(layouts[language], [], found)
    for (const link of found) check(layoutFile(language), link.field, link.href)
  }
  for (const entry of entries) {
    const found: { field: string; href: string }[] = []
    collectLinks(entry.data, [], found)
    for (const link of found) check(entry.file, link.field, link.href)
  }
}

/** Every image an entry names (`src` fields under /images/) exists in the public folder. */
export function checkImages(
  entries: ContentEntry[],
  publicDir: string,
  problems: ContentProblem[],
): void {
  const visit = (value: unknown, path: string[], file: string) => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        visit(item, [...path, String(index)], file)
      })
      return
    }
    if (typeof value !== 'object' || value === null) return
    for (const [key, child] of Object.entries(value)) {
      if (key === 'src' && typeof child === 'string' && child.startsWith('/images/')) {
        const generated = generatedImageDirOf(child)
        if (generated) {
          problems.push({
            file,
            field: [...path, key].join('.'),
            message: `expected an image of the content; ${child} is in ${generated}/, where the build writes files of its own`,
          })
        } else if (!existsSync(join(publicDir, child))) {
          problems.push({
            file,
            field: [...path, key].join('.'),
            message: `expected an existing image; there is no public${child}`,
          })
        }
      } else visit(child, [...path, key], file)
    }
  }
  for (const entry of entries) visit(entry.data, [], entry.file)
}
