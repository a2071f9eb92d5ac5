/**
 * The Decap CMS configuration, generated from the content model: one CMS collection per
 * content type with its fields from the zod schemas; pages with a fixed address are edited but
 * never created or deleted; open-ended types (services, posts, jobs…) take new entries. Entries
 * with a twin are edited with both languages side by side.
 *
 * The CMS sees each collection as one folder, `content/{collection}/{language}/{key}.yaml`
 * (Decap's "multiple folders" layout); the local backend (`./backend.ts`) maps it onto the
 * store's `{language}/{root}/{name}.yaml`.
 */
import type { z } from 'zod'
import { locate } from '../content/collections'
import type { CollectionName } from '../content/schema/collection-name'
import * as schemas from '../content/schema/entries'
import * as formSchemas from '../content/schema/forms'
import { ratesTexts } from '../content/schema/rates'
import type { ContentDocument } from '../content/source'
import { DEFAULT_LANGUAGE, LANGUAGES } from '../shared/languages'
import type { LabelLanguage } from './field-labels'
import { type Choice, type CmsField, type FieldOptions, objectFields } from './fields'
import { germanFields } from './german'

/** Where the backend answers; the editor's page lives beside it. */
export const CMS_PATH = '/admin/'
export const CMS_API_PATH = `${CMS_PATH}api/v1`

/**
 * One CMS collection: a folder of entries as the CMS sees it (`content/{name}/{language}/{key}`),
 * mapped by the backend onto the store.
 */
export interface CmsCollection {
  name: string
  label: string
  labelSingular: string
  description: string
  /** The store folder below each language folder (twins), or from the store's top. */
  root: string
  /**
   * The content types listed; `layout` is the one layout file of each language,
   * `mailingList` and `survey` the forms (`forms/lists/`, `forms/surveys/`).
   */
  types: readonly CollectionName[] | SpecialType
  markdown: boolean
  /** An entry per language, edited side by side. */
  twin: boolean
  /** Entries have fixed addresses below `root` (`support/faq` shows as `support.faq`). */
  fixed: boolean
  summary: string
  identifier: string
  media?: { folder: string; public: string }
  sortable?: string[]
  filters?: { label: string; field: string; pattern: string }[]
  /** The collection's words for an editor whose language is German. */
  de: CollectionWords
}

/** What the editor calls a collection and says of it, in one language. */
export interface CollectionWords {
  label: string
  labelSingular: string
  description: string
  /** An entry's line in the list, where its words differ from the English one. */
  summary?: string
}

/** Files that are no page: the layouts and the forms. */
export type SpecialType = 'layout' | 'mailingList' | 'survey'

const pages = (name: string, types: CollectionName[], rest: Partial<CmsCollection>) =>
  ({
    name,
    root: 'pages',
    types,
    markdown: false,
    twin: true,
    fixed: false,
    summary: '{{title}}',
    identifier: 'title',
    ...rest,
  }) as CmsCollection

/** Every collection the editor shows, in its order. */
export const CMS_COLLECTIONS: readonly CmsCollection[] = [
  pages('pages', ['page'], {
    label: 'Pages',
    labelSingular: 'Page',
    de: {
      label: 'Seiten',
      labelSingular: 'Seite',
      description:
        'Seiten mit fester Adresse, aus Abschnitten aufgebaut: Startseite, Über uns, Karriere, Presse, Formulare und ihre Bestätigungsseiten. Der Dateiname ist die Adresse: support.faq ist /support/faq/.',
    },
    description:
      'Pages with a fixed address, built from sections: home, about, careers, press, forms and their success pages. The file name is the address: support.faq is /support/faq/.',
    fixed: true,
    summary: '{{title}} ({{filename}})',
  }),
  pages('service', ['service'], {
    label: 'Services',
    labelSingular: 'Service',
    de: {
      label: 'Leistungen',
      labelSingular: 'Leistung',
      description: 'Eine Seite je Leistung unter /services/{Adresse}/.',
    },
    root: 'pages/services',
    description: 'One page per service at /services/{address}/.',
  }),
  pages('caseStudy', ['caseStudy'], {
    label: 'Case studies',
    labelSingular: 'Case study',
    de: {
      label: 'Fallstudien',
      labelSingular: 'Fallstudie',
      description: 'Eine Seite je Partner unter /case-studies/{Adresse}/.',
    },
    root: 'pages/case-studies',
    description: 'One page per partner at /case-studies/{address}/.',
    summary: '{{partner}}: {{title}}',
  }),
  pages('supportClient', ['supportClient'], {
    label: 'Support: partner pages',
    labelSingular: 'Partner support page',
    de: {
      label: 'Support: Partnerseiten',
      labelSingular: 'Support-Seite eines Partners',
      description:
        'Wo die Kundinnen und Kunden eines Partners Hilfe bekommen, wie sie sich beschweren und wie sie die Bank erreichen: /support/{Adresse}/.',
    },
    root: 'pages/support',
    description:
      "Where a partner's customers get help, how they complain and how they reach the bank: /support/{address}/.",
    summary: '{{partner}}',
  }),
  {
    name: 'supportCategory',
    label: 'Support: categories',
    labelSingular: 'Support category',
    de: {
      label: 'Support: Kategorien',
      labelSingular: 'Support-Kategorie',
      description: 'Gruppen von Partnerseiten: /support/categories/{Adresse}/.',
    },
    description: 'Groups of partner pages: /support/categories/{address}/.',
    root: 'support-categories',
    types: ['supportCategory'],
    markdown: false,
    twin: true,
    fixed: false,
    summary: '{{order}}. {{title}}',
    identifier: 'title',
    sortable: ['order', 'title'],
  },
  pages('customerInformation', ['customerInformation'], {
    label: 'Customer information',
    labelSingular: 'Customer information',
    de: {
      label: 'Kundeninformationen',
      labelSingular: 'Kundeninformation',
      description:
        'Einlegerinformationen und vorvertragliche Informationen je Land, IBAN und Sprache; die PDFs entstehen aus demselben Text.',
    },
    description:
      'Depositor information and pre-contractual information per country, IBAN and language; the PDFs are built from the same text.',
    fixed: true,
    summary: '{{title}} ({{filename}})',
  }),
  pages('study', ['study'], {
    label: 'Studies',
    labelSingular: 'Study',
    de: {
      label: 'Studien',
      labelSingular: 'Studie',
      description: 'Studien mit ihren Ergebnissen und dem Bericht als PDF: /studies/{Adresse}/.',
    },
    root: 'pages/studies',
    description: 'Studies with their findings and PDF report: /studies/{address}/.',
  }),
  {
    name: 'jobPosting',
    label: 'Job postings',
    labelSingular: 'Job posting',
    de: {
      label: 'Stellenanzeigen',
      labelSingular: 'Stellenanzeige',
      description:
        'Offene Stellen: /careers/{Adresse}/. Löschen Sie eine Anzeige, sobald die Stelle besetzt ist.',
      summary: '{{title}} (bis {{validThrough}})',
    },
    description: 'Open positions: /careers/{address}/. Delete a posting once it is filled.',
    root: 'jobs',
    types: ['jobPosting'],
    markdown: false,
    twin: true,
    fixed: false,
    summary: '{{title}} (until {{validThrough}})',
    identifier: 'title',
    sortable: ['datePosted', 'title'],
  },
  {
    name: 'pressRelease',
    label: 'Press releases',
    labelSingular: 'Press release',
    de: {
      label: 'Pressemitteilungen',
      labelSingular: 'Pressemitteilung',
      description: 'Pressemitteilungen: /press/{Adresse}/.',
    },
    description: 'Press releases: /press/{address}/.',
    root: 'press',
    types: ['pressRelease'],
    markdown: true,
    twin: true,
    fixed: false,
    summary: '{{date}}: {{title}}',
    identifier: 'title',
    sortable: ['date', 'title'],
  },
  {
    name: 'blogPost',
    label: 'Blog posts',
    labelSingular: 'Blog post',
    de: {
      label: 'Blogbeiträge',
      labelSingular: 'Blogbeitrag',
      description:
        'Jeder Beitrag ist in einer Sprache geschrieben (Feld „Sprache“). Seine Adresse (/blog/ und das Feld „Adresse (Slug)“) wird beim ersten Speichern aus dem Titel gebildet und bleibt, wenn sich der Titel ändert; wer sie ändert, zieht den Beitrag um, und die alte Adresse führt zur neuen.',
    },
    description:
      'Each post is written in one language (its "language" field). Its address (/blog/ and its "slug") is made from the title when the post is first saved and kept when the title changes; changing it moves the post, and the old address leads to the new one.',
    root: 'blog/posts',
    types: ['blogPost'],
    markdown: true,
    twin: false,
    fixed: false,
    summary: '{{date}} · {{language}} · {{title}}',
    identifier: 'title',
    media: { folder: '/public/images/blog', public: '/images/blog' },
    sortable: ['date', 'title', 'language'],
    filters: LANGUAGES.map((language) => ({
      label: language.toUpperCase(),
      field: 'language',
      pattern: language,
    })),
  },
  {
    name: 'blogCategory',
    label: 'Blog categories',
    labelSingular: 'Blog category',
    de: {
      label: 'Blogkategorien',
      labelSingular: 'Blogkategorie',
      description: 'Die Kategorien des Blogs, in jeder Sprache benannt: /blog/category/{Adresse}/.',
      summary: '{{name.de}} / {{name.en}}',
    },
    description: 'Categories of the blog, named in every language: /blog/category/{address}/.',
    root: 'blog/categories',
    types: ['blogCategory'],
    markdown: false,
    twin: false,
    fixed: false,
    summary: '{{name.en}} / {{name.de}}',
    identifier: 'name.en',
  },
  {
    name: 'mailingList',
    label: 'Forms: mailing lists',
    labelSingular: 'Mailing list',
    de: {
      label: 'Formulare: E-Mail-Verteiler',
      labelSingular: 'E-Mail-Verteiler',
      description:
        'Die Anmeldeformulare für den Newsletter und die Produktneuigkeiten: Einwilligungstext, Themen und Bestätigungs-E-Mail. Ändern Sie die Version der Einwilligung, sobald sich der Einwilligungstext ändert.',
      summary: '{{name.de}} (Einwilligung in Version {{consentVersion}})',
    },
    description:
      'The sign-up forms of the newsletter and the product updates: consent text, topics and the confirmation e-mail. Change the consent version whenever the consent text changes.',
    root: 'forms/lists',
    types: 'mailingList',
    markdown: false,
    twin: false,
    fixed: true,
    summary: '{{name.en}} (consent version {{consentVersion}})',
    identifier: 'name.en',
  },
  {
    name: 'survey',
    label: 'Forms: surveys',
    labelSingular: 'Survey',
    de: {
      label: 'Formulare: Umfragen',
      labelSingular: 'Umfrage',
      description:
        'Umfragen und ihre Fragen; eine Seite zeigt eine davon mit einem Abschnitt „Formular“, der ihre Datei nennt. Ändern Sie die Version, sobald sich eine Frage oder eine Antwort ändert.',
      summary: '{{name.de}} (Version {{version}})',
    },
    description:
      'Surveys and their questions; a page shows one with a "form" section naming its file. Change the version whenever a question or answer changes.',
    root: 'forms/surveys',
    types: 'survey',
    markdown: false,
    twin: false,
    fixed: false,
    summary: '{{name.en}} (version {{version}})',
    identifier: 'name.en',
  },
  pages('legal', ['legalPage'], {
    label: 'Legal texts',
    labelSingular: 'Legal text',
    de: {
      label: 'Rechtstexte',
      labelSingular: 'Rechtstext',
      description:
        'Impressum, Datenschutzerklärung, Nutzungsbedingungen und Erklärung zur Barrierefreiheit.',
      summary: '{{title}} (Stand {{updated}})',
    },
    description: 'Imprint, privacy policy, terms of use and accessibility statement.',
    fixed: true,
    summary: '{{title}} (updated {{updated}})',
  }),
  {
    // Not "layout": Decap inserts the language before the first "/layout" of the path; and not
    // "navigation": Decap loses an entry's data when a field shares its collection's name.
    name: 'siteTexts',
    label: 'Navigation and interface texts',
    labelSingular: 'Navigation and interface texts',
    de: {
      label: 'Navigation und Oberflächentexte',
      labelSingular: 'Navigation und Oberflächentexte',
      description:
        'Hauptnavigation, Links der Fußzeile und die Texte von Schaltflächen, Beschriftungen und Ansagen.',
      summary: 'Navigation, Fußzeile und Oberflächentexte',
    },
    description:
      'Main navigation, footer links and the texts of buttons, labels and announcements.',
    root: '',
    types: 'layout',
    markdown: false,
    twin: true,
    fixed: true,
    summary: 'Navigation, footer and interface texts',
    identifier: 'strings.home',
  },
]

/** Files outside every language folder, edited as they are. */
export const SHARED_FILES = {
  site: 'site.yaml',
  blogArchive: 'blog/archive.yaml',
  ratesTexts: 'exchange-rates/texts.yaml',
} as const

const SCHEMAS: Record<CollectionName, z.ZodType> = {
  page: schemas.page,
  service: schemas.service,
  caseStudy: schemas.caseStudy,
  supportCategory: schemas.supportCategory,
  supportClient: schemas.supportClient,
  customerInformation: schemas.customerInformation,
  legalPage: schemas.legalPage,
  study: schemas.study,
  jobPosting: schemas.jobPosting,
  pressRelease: schemas.pressRelease,
  blogPost: schemas.blogPost,
  blogCategory: schemas.blogCategory,
}

/** An entry's name as a reference field offers it: its title, or its name in the lists. */
const titleOf = (data: unknown, language: string, fallback: string) => {
  const { title, name } = (data ?? {}) as { title?: unknown; name?: Record<string, unknown> }
  return String(title ?? name?.[language] ?? name?.en ?? fallback)
}

/**
 * The entries each reference field may name, from the store as it is now, each by its title
 * in the editor's `language` where the entry has a twin in it (else by the English one).
 */
function choicesOf(
  documents: readonly ContentDocument[],
  language: LabelLanguage,
): FieldOptions['references'] {
  const titles = new Map<string, string>()
  for (const document of documents) {
    const located = locate(document.file)
    if (!located || located.language !== language || language === DEFAULT_LANGUAGE) continue
    titles.set(
      `${located.collection.name}/${located.name}`,
      titleOf(document.data, language, located.name),
    )
  }
  const choices: Record<string, Choice[]> = {}
  for (const document of documents) {
    const located = locate(document.file)
    if (!located || (located.language && located.language !== DEFAULT_LANGUAGE)) continue
    const type = located.collection.name
    const label =
      titles.get(`${type}/${located.name}`) ?? titleOf(document.data, language, located.name)
    choices[type] ??= []
    // References name an entry by its file name: `cards` for `pages/services/cards.yaml`.
    choices[type].push({ label, value: located.name.split('/').at(-1) ?? located.name })
  }
  for (const list of Object.values(choices)) list.sort((a, b) => a.label.localeCompare(b.label))
  return choices
}

const schemaOf = (collection: CmsCollection): z.ZodType => {
  if (collection.types === 'layout') return schemas.layout
  if (collection.types === 'mailingList') return formSchemas.mailingList
  if (collection.types === 'survey') return formSchemas.survey
  const [type] = collection.types
  if (!type) throw new Error(`the CMS collection "${collection.name}" lists no content type`)
  return SCHEMAS[type]
}

const I18N = {
  structure: 'multiple_folders',
  locales: [...LANGUAGES],
  default_locale: DEFAULT_LANGUAGE,
}

/** A schema's fields as the editor shows them in `language`. */
function fieldsIn(schema: z.ZodType, options: FieldOptions, language: LabelLanguage): CmsField[] {
  const fields = objectFields(schema, options)
  return language === 'de' ? germanFields(fields) : fields
}

function folderCollection(
  collection: CmsCollection,
  references: FieldOptions['references'],
  language: LabelLanguage,
): Record<string, unknown> {
  const words: CollectionWords = language === 'de' ? collection.de : collection
  return {
    name: collection.name,
    label: words.label,
    label_singular: words.labelSingular,
    description: words.description,
    folder: `content/${collection.name}`,
    extension: collection.markdown ? 'md' : 'yaml',
    format: collection.markdown ? 'frontmatter' : 'yaml',
    create: !collection.fixed,
    delete: !collection.fixed,
    identifier_field: collection.identifier,
    summary: words.summary ?? collection.summary,
    ...(collection.twin ? { i18n: true } : {}),
    ...(collection.media
      ? { media_folder: collection.media.folder, public_folder: collection.media.public }
      : {}),
    ...(collection.sortable ? { sortable_fields: collection.sortable } : {}),
    ...(collection.filters ? { view_filters: collection.filters } : {}),
    fields: fieldsIn(schemaOf(collection), { i18n: collection.twin, references }, language),
  }
}

/** What the editor calls the settings and each of their files, in each language. */
export const SETTINGS_WORDS: Record<
  LabelLanguage,
  { label: string; description: string; files: Record<keyof typeof SHARED_FILES, string> }
> = {
  en: {
    label: 'Site settings',
    description:
      'The brand and company facts, the blog archive page and the words of the exchange-rate pages.',
    files: {
      site: 'Brand and company facts (imprint, contact, supervisors)',
      blogArchive: 'Blog archive page (both languages)',
      ratesTexts: 'Exchange-rate pages: words of the tables and the converter (both languages)',
    },
  },
  de: {
    label: 'Website-Einstellungen',
    description:
      'Die Angaben zu Marke und Unternehmen, die Seite des Blogarchivs und die Texte der Wechselkursseiten.',
    files: {
      site: 'Marke und Unternehmensangaben (Impressum, Kontakt, Aufsicht)',
      blogArchive: 'Seite des Blogarchivs (beide Sprachen)',
      ratesTexts: 'Wechselkursseiten: Texte der Tabellen und des Währungsrechners (beide Sprachen)',
    },
  },
}

function settingsCollection(
  references: FieldOptions['references'],
  language: LabelLanguage,
): Record<string, unknown> {
  const words = SETTINGS_WORDS[language]
  const options = { i18n: false, references }
  return {
    name: 'settings',
    label: words.label,
    description: words.description,
    create: false,
    delete: false,
    files: [
      {
        name: 'site',
        label: words.files.site,
        file: `content/${SHARED_FILES.site}`,
        fields: fieldsIn(schemas.siteSettings, options, language),
      },
      {
        name: 'blog-archive',
        label: words.files.blogArchive,
        file: `content/${SHARED_FILES.blogArchive}`,
        fields: fieldsIn(schemas.blogArchive, options, language),
      },
      {
        name: 'rates-texts',
        label: words.files.ratesTexts,
        file: `content/${SHARED_FILES.ratesTexts}`,
        fields: fieldsIn(ratesTexts, options, language),
      },
    ],
  }
}

/**
 * The whole configuration, for `CMS.init({ config })`. `origin` is the editor's; `documents`
 * are the store's, for the entries reference fields offer (a new entry is offered after the
 * editor is reloaded). `language` is the editor's: every name, hint and description the
 * configuration gives is in it (`npm run dev`'s editor speaks English).
 */
export function cmsConfig(
  origin: string,
  documents: readonly ContentDocument[],
  language: LabelLanguage = 'en',
): Record<string, unknown> {
  const references = choicesOf(documents, language)
  return {
    load_config_file: false,
    backend: { name: 'proxy', proxy_url: `${origin}${CMS_API_PATH}`, branch: 'main' },
    publish_mode: 'simple',
    site_url: origin,
    display_url: origin,
    logo_url: `${origin}/icon.svg`,
    media_folder: 'public/images',
    public_folder: '/images',
    slug: { encoding: 'ascii', clean_accents: true, sanitize_replacement: '-' },
    i18n: I18N,
    collections: [
      ...CMS_COLLECTIONS.map((collection) => folderCollection(collection, references, language)),
      settingsCollection(references, language),
    ],
  }
}
