/**
 * Where a card network's rates by day live: one JSON file per currency (`RateHistory`), under a
 * folder named by a hash of all of them, `/rates/{network}/{version}/{code}.json`.
 *
 * Why a hashed folder rather than stable names with `no-cache`: the files change only when a
 * build brings new rates, and then every currency changes at once (each gets the new day), so
 * one version for the set costs nothing in reuse and keeps the page data to one short name.
 * A name that never changes its content can be cached for a year without revalidation
 * (`immutable`) by browsers, CDNs and the service worker (cache first): a currency seen once
 * costs no request again, online or offline, and a page always reads the files of its own
 * build, never a newer day than its table shows. The price: a page left open across a deploy
 * asks for files that are gone (404), which the page answers by offering a reload.
 */

/** The top folder of the history files; a response kind of its own (`http-headers.ts`). */
export const RATES_HISTORY_DIR = '/rates/'

/** The folder of one network's history files of one build. */
export function historyFolder(network: string, version: string): string {
  return `${RATES_HISTORY_DIR}${network}/${version}/`
}

/** The file of one currency in a history folder. */
export function historyUrl(folder: string, currency: string): string {
  return `${folder}${currency}.json`
}

export function isHistoryPath(path: string): boolean {
  return path.startsWith(RATES_HISTORY_DIR)
}
