/**
 * The ECB's reference rates fetched at build time (`RATES_FETCH=1`): the 90-day history from
 * the ECB (or `RATES_URL`). The content store's snapshot stays the fallback: without a network,
 * or when the ECB answers with anything but rates, the build goes on with it and says so.
 */

/** The ECB's last 90 days of reference rates, in the same XML as the daily file. */
export const ECB_HISTORY_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml'

const TIMEOUT_MS = 15_000

export async function fetchEcbRates(
  url: string,
  timeoutMs = TIMEOUT_MS,
): Promise<{ text: string; url: string } | undefined> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) })
    if (!response.ok) throw new Error(`HTTP ${response.status}`)
    const text = await response.text()
    if (!text.includes('<Cube')) throw new Error('the answer holds no rates')
    return { text, url }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    console.warn(`Could not fetch the ECB rates from ${url} (${reason}); using the snapshot.`)
    return undefined
  }
}
