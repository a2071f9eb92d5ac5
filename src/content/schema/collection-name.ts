/**
 * The content types by name. Fields name them too (a reference to an entry of another type), so
 * the names stand apart from the collections table, which in turn needs every schema.
 */
export type CollectionName =
  | 'page'
  | 'service'
  | 'caseStudy'
  | 'supportCategory'
  | 'supportClient'
  | 'customerInformation'
  | 'legalPage'
  | 'study'
  | 'jobPosting'
  | 'pressRelease'
  | 'blogPost'
  | 'blogCategory'
