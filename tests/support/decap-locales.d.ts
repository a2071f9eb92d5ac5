/**
 * Decap's locales as its package ships them (`decap-cms-locales/dist/esm/<language>`), which
 * have no types: each a nested table of phrases. Tests compare the editor's words with them.
 */
declare module 'decap-cms-locales/dist/esm/*/index.js' {
  interface Phrases {
    [key: string]: string | Phrases
  }
  const phrases: Phrases
  export default phrases
}
